/**
 * Asks before deleting the selected proxies, naming each, then starts one
 * delete task per proxy. The confirm button has focus: Delete, then Enter.
 * Selected VMs the delete does not apply to are named with why; an
 * operator-made one needs the operator warning acknowledged first.
 */
import { useState } from 'react';
import type { PendingAction } from './actions/action-store';
import { ActionTargets, OperatorAcknowledgement, operatorCount } from './actions/ActionTargets';
import type { AppErrorValue } from '../../../../shared/errors';
import { ConfirmDialog } from '../../components/common/ConfirmDialog';
import { useTasks } from '../../stores/tasks';
import { providerId, type ProxyRow } from './rows';

export interface DeleteOutcome {
  started: number;
  /** The first task started (the parent of several). */
  taskId: string | undefined;
  error: AppErrorValue | undefined;
}

function byCluster(rows: ProxyRow[]): Map<string, ProxyRow[]> {
  const groups = new Map<string, ProxyRow[]>();
  for (const r of rows) groups.set(r.clusterId, [...(groups.get(r.clusterId) ?? []), r]);
  return groups;
}

export function DeleteProxies({
  rows,
  pending,
  onDone,
  onCancel,
}: {
  rows: ProxyRow[];
  /** From the row actions: who is left out, and whether the operator warning needs acknowledging. */
  pending?: PendingAction;
  onDone: (o: DeleteOutcome) => void;
  onCancel: () => void;
}) {
  const deleteProxies = useTasks((s) => s.deleteProxies);
  const [busy, setBusy] = useState(false);
  const [acknowledged, setAcknowledged] = useState(false);
  const noun = rows.length === 1 ? 'proxy' : 'proxies';
  const confirm = async () => {
    setBusy(true);
    let started = 0;
    let taskId: string | undefined;
    let error: AppErrorValue | undefined;
    for (const [clusterId, group] of byCluster(rows)) {
      const answer = await deleteProxies(clusterId, group.map(providerId), pending?.needsAcknowledgement === true);
      if (answer.ok) {
        started += answer.value.taskIds.length;
        taskId ??= answer.value.parentId ?? answer.value.taskIds[0];
      } else error = answer.error;
    }
    setBusy(false);
    onDone({ started, taskId, error });
  };
  return (
    <ConfirmDialog
      title={`Delete ${rows.length} ${noun}?`}
      confirmLabel={`Delete ${rows.length} ${noun}`}
      danger
      confirmFirst
      busy={busy || (pending?.needsAcknowledgement === true && !acknowledged)}
      onConfirm={() => void confirm()}
      onCancel={onCancel}
    >
      <p>These VMs and their seed ISOs will be deleted from Proxmox. This cannot be undone.</p>
      {pending ? (
        <ActionTargets pending={pending} />
      ) : (
        <ul className="plain-list confirm-list">
          {rows.map((r) => (
            <li key={r.key}>
              <strong>{r.name}</strong> (VM {r.vmid} on {r.node}, {r.clusterName})
            </li>
          ))}
        </ul>
      )}
      {pending?.needsAcknowledgement && (
        <OperatorAcknowledgement checked={acknowledged} onChange={setAcknowledged} {...operatorCount(pending.rows)} first />
      )}
    </ConfirmDialog>
  );
}
