/**
 * Asks before deleting the selected proxies, naming each, then starts one
 * delete task per proxy. The confirm button has focus: Delete, then Enter.
 */
import { useState } from 'react';
import type { AppErrorValue } from '../../../../shared/errors';
import { ConfirmDialog } from '../../components/common/ConfirmDialog';
import { useTasks } from '../../stores/tasks';
import { providerId, type ProxyRow } from './rows';

export interface DeleteOutcome {
  started: number;
  error: AppErrorValue | undefined;
}

function byCluster(rows: ProxyRow[]): Map<string, ProxyRow[]> {
  const groups = new Map<string, ProxyRow[]>();
  for (const r of rows) groups.set(r.clusterId, [...(groups.get(r.clusterId) ?? []), r]);
  return groups;
}

export function DeleteProxies({ rows, onDone, onCancel }: { rows: ProxyRow[]; onDone: (o: DeleteOutcome) => void; onCancel: () => void }) {
  const deleteProxies = useTasks((s) => s.deleteProxies);
  const [busy, setBusy] = useState(false);
  const noun = rows.length === 1 ? 'proxy' : 'proxies';
  const confirm = async () => {
    setBusy(true);
    let started = 0;
    let error: AppErrorValue | undefined;
    for (const [clusterId, group] of byCluster(rows)) {
      const answer = await deleteProxies(clusterId, group.map(providerId));
      if (answer.ok) started += answer.value.taskIds.length;
      else error = answer.error;
    }
    setBusy(false);
    onDone({ started, error });
  };
  return (
    <ConfirmDialog
      title={`Delete ${rows.length} ${noun}?`}
      confirmLabel={`Delete ${rows.length} ${noun}`}
      danger
      confirmFirst
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={onCancel}
    >
      <p>These VMs and their seed ISOs will be deleted from Proxmox. This cannot be undone.</p>
      <ul className="plain-list confirm-list">
        {rows.map((r) => (
          <li key={r.key}>
            <strong>{r.name}</strong> (VM {r.vmid} on {r.node}, {r.clusterName})
          </li>
        ))}
      </ul>
    </ConfirmDialog>
  );
}
