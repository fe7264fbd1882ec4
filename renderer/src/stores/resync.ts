/**
 * After the link to main comes back, every store re-reads what main holds:
 * events sent while the window was away are gone, so each snapshot is read
 * again rather than trusted. Returns the unsubscribe.
 */
import { useAlerts } from './alerts';
import { useChecks } from './checks';
import { useCleanup } from './cleanup';
import { useConnection } from './connection';
import { useHealth } from './health';
import { useInventory } from './inventory';
import { useProfiles } from './profiles';
import { useSettings } from './settings';
import { useTasks } from './tasks';

export function resyncOnReconnect(): () => void {
  return useConnection.getState().onReconnect(() => {
    for (const store of [useInventory, useTasks, useProfiles, useSettings, useHealth, useChecks, useAlerts]) void store.getState().reload();
    // A cleanup scan on screen is read again too (a scan only reads).
    const cleanup = useCleanup.getState();
    if (cleanup.report && !cleanup.scanning) void cleanup.scan();
  });
}
