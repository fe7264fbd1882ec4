// First: configures zod before any schema module (shared/, the stores) is evaluated.
import './zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { useAlerts } from './stores/alerts';
import { useChecks } from './stores/checks';
import { useCleanup } from './stores/cleanup';
import { useConnection } from './stores/connection';
import { useDoctor } from './stores/doctor';
import { useHealth } from './stores/health';
import { useInventory } from './stores/inventory';
import { useProfiles } from './stores/profiles';
import { useProxyCheck } from './stores/proxy-check';
import { useRrd } from './stores/rrd';
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
useRrd.getState().attach(api);
// After the inventory: it loads the latest checks of each cluster the inventory lists.
useChecks.getState().attach(api);
useAlerts.getState().attach(api);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
