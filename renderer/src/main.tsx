import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './App';
import { useCleanup } from './stores/cleanup';
import { useConnection } from './stores/connection';
import { useDoctor } from './stores/doctor';
import { useHealth } from './stores/health';
import { useInventory } from './stores/inventory';
import { useProfiles } from './stores/profiles';
import { useProxyCheck } from './stores/proxy-check';
import { useSettings } from './stores/settings';
import { useTasks } from './stores/tasks';
import { connectToMain } from './transport';
import './styles.css';

// zod's fast path compiles validators with Function(); the strict CSP forbids that, so say so up front
// instead of letting zod probe and trip a CSP violation report.
z.config({ jitless: true });

const api = connectToMain((link) => useConnection.getState().setLink(link));
useConnection.getState().attach(api);
for (const store of [useInventory, useTasks, useCleanup, useProxyCheck]) store.getState().attach(api);
for (const store of [useProfiles, useSettings, useHealth, useDoctor]) store.getState().attach(api);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
