/**
 * The Proxies toolbar's actions on the selection (issue 16): each action in
 * bulk (one parent task with a child per VM, in main). An action is offered
 * when it applies to at least one selected VM (shared/domain/bulk-actions.ts);
 * its dialog names the VMs it acts on and the ones it leaves out, with why.
 * Disabled buttons say why in their title. Console is for one VM at a time;
 * migrate, reconfigure and recreate for one cluster at a time.
 */
import { useMemo } from 'react';
import { bulkApplies, oneClusterAtATime } from '../../../../../shared/domain/bulk-actions';
import { proxyActions, type ProxyAction } from '../../../../../shared/domain/proxy-actions';
import { useActionsAvailable } from '../../../stores/connection';
import { useInventory } from '../../../stores/inventory';
import { useProfiles } from '../../../stores/profiles';
import type { ProxyRow } from '../rows';
import { useProxyActions } from './action-store';
import { subjectOf } from './action-subject';
import { menuLabel } from './ActionMenu';
import { useExportDialog } from '../exports/export-store';
import { useHandoffDialog, useImportDialog } from '../handoff/handoff-store';
import './actions.css';

/** The keys that run an action on the selection (ProxiesView binds them). */
export const actionShortcuts: Partial<Record<ProxyAction, string>> = { start: 'Shift+S', stop: 'Shift+X', reboot: 'Shift+R' };

export function SelectionActions({ rows }: { rows: readonly ProxyRow[] }) {
  const ask = useProxyActions((s) => s.ask);
  const openExport = useExportDialog((s) => s.open);
  const openHandoff = useHandoffDialog((s) => s.open);
  const openImport = useImportDialog((s) => s.show);
  const clusters = useInventory((s) => s.clusters);
  const profiles = useProfiles((s) => s.list?.profiles);
  const available = useActionsAvailable();
  const subjects = useMemo(() => rows.map((r) => subjectOf(r, clusters, profiles)), [rows, clusters, profiles]);
  const clusterCount = new Set(rows.map((r) => r.clusterId)).size;
  const verdict = (a: ProxyAction): { enabled: boolean; reason?: string } => {
    if (!available.enabled && a !== 'console') return { enabled: false, reason: available.reason };
    if (a === 'console' && rows.length > 1) return { enabled: false, reason: 'The console opens for one VM at a time: select one.' };
    if (oneClusterAtATime(a) && clusterCount > 1) return { enabled: false, reason: 'Select proxies of one cluster for this.' };
    return bulkApplies(subjects, a);
  };
  return (
    <div className="selection-actions" role="group" aria-label="Actions on the selection">
      {proxyActions.map((a) => {
        const v = verdict(a);
        const label = a === 'delete' ? `Delete selected${rows.length ? ` (${rows.length})` : ''}` : menuLabel(a);
        return (
          <button
            key={a}
            type="button"
            className={a === 'delete' ? 'danger' : undefined}
            disabled={!v.enabled}
            title={v.enabled ? actionShortcuts[a] : v.reason}
            aria-keyshortcuts={a === 'delete' ? 'Delete' : actionShortcuts[a]}
            onClick={() => ask(a, subjects)}
          >
            {label}
          </button>
        );
      })}
      {/* Issue 24 §3: hand the selection (or a tag's proxies, picked in the dialog) to clients. */}
      <button type="button" onClick={() => openExport(rows)}>
        Export…
      </button>
      {/* Issue 26: hand the selection (one cluster) to the Kubernetes operator, or take it back. */}
      <button
        type="button"
        disabled={rows.length === 0 || clusterCount > 1 || !available.enabled}
        title={rows.length === 0 ? 'Select one or more proxies first.' : clusterCount > 1 ? 'Select proxies of one cluster for this.' : undefined}
        onClick={() => openHandoff(rows)}
      >
        Hand to Kubernetes…
      </button>
      <button type="button" disabled={!available.enabled} title={available.enabled ? undefined : available.reason} onClick={openImport}>
        Take in manifests…
      </button>
    </div>
  );
}
