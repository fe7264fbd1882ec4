// First: configures zod before any schema module (shared/, the stores) is evaluated.
import './zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { useCleanup } from './stores/cleanup';
import { useConnection } from './stores/connection';
import { useDoctor } from './stores/doctor';
import { useHealth } from './stores/health';
import { useInventory } from './stores/inventory';
import { useProfiles } from './stores/profiles';
import { useProxyCheck } from './stores/proxy-check';
import { resyncOnReconnect } from './stores/resync';
import { useSettings } from './stores/settings';
import { useTasks } from './stores/tasks';
import { connectToMain } from './transport';
import './styles.css';

const api = connectToMain(
  (link) => useConnection.getState().setLink(link),
  (request) => useConnection.getState().addUnanswered(request),
);
useConnection.getState().attach(api);
resyncOnReconnect();
for (const store of [useInventory, useTasks, useCleanup, useProxyCheck]) store.getState().attach(api);
for (const store of [useProfiles, useSettings, useHealth, useDoctor]) store.getState().attach(api);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
