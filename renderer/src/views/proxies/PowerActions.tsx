/**
 * Issue 16: the drawer's power actions. Each button is enabled only when the
 * action applies to the VM's state (shared/domain/power-actions.ts, the same
 * rule main refuses by) and says why not in its title. Stop and Reboot ask
 * first, naming the VM; an operator-made VM warns that its operator may undo
 * the change. A foreign VM gets no actions at all.
 */
import { useState } from 'react';
import type { AppErrorValue } from '../../../../shared/errors';
import { powerActionLabel, powerActions, powerApplicability, type PowerAction } from '../../../../shared/domain/power-actions';
import { ConfirmDialog } from '../../components/common/ConfirmDialog';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { useActionsAvailable } from '../../stores/connection';
import { useTasks } from '../../stores/tasks';
import type { ProxyRow } from './rows';

const confirmed: ReadonlySet<PowerAction> = new Set(['stop', 'reboot']);

const consequence: Record<PowerAction, string> = {
  start: 'Proxmox starts the VM.',
  shutdown: 'Proxmox asks the guest to shut down cleanly.',
  stop: 'Proxmox stops the VM at once, like pulling the plug: the guest gets no chance to shut down cleanly, and connections through it drop.',
  reboot: 'The guest restarts: connections through it drop until it is back.',
};

const operatorWarning =
  'This VM is operator-made: the operator may undo the change (the Kubernetes operator, or whatever made it, may start or stop it again).';

export function PowerActions({ row }: { row: ProxyRow }) {
  const power = useTasks((s) => s.power);
  const available = useActionsAvailable();
  const [asking, setAsking] = useState<PowerAction>();
  const [busy, setBusy] = useState<PowerAction>();
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<AppErrorValue>();
  if (row.owner === 'foreign' || !row.name) return null;
  const name = row.name;
  const operatorMade = row.ours === false;
  const applies = powerApplicability(row);

  const run = async (action: PowerAction) => {
    setAsking(undefined);
    setBusy(action);
    setNote(undefined);
    setError(undefined);
    const answer = await power({ clusterId: row.clusterId, targets: [{ vmid: row.vmid, name }], action });
    setBusy(undefined);
    if (answer.ok) setNote(`${powerActionLabel[action]} of ${name} started as a task.`);
    else setError(answer.error);
  };

  return (
    <section className="drawer-section" aria-label="Power">
      <div className="task-actions" role="group" aria-label="Power actions">
        {powerActions.map((a) => {
          const why = !available.enabled ? available.reason : applies[a].reason;
          return (
            <button
              key={a}
              type="button"
              className={a === 'stop' ? 'danger' : undefined}
              disabled={busy !== undefined || !available.enabled || !applies[a].enabled}
              title={why}
              onClick={() => (confirmed.has(a) ? setAsking(a) : void run(a))}
            >
              {busy === a ? `${powerActionLabel[a]}…` : powerActionLabel[a]}
            </button>
          );
        })}
      </div>
      {operatorMade && <p className="muted">{operatorWarning}</p>}
      {note && <p role="status">{note}</p>}
      {error && <ErrorNotice error={error} title="That did not work" />}
      {asking && (
        <ConfirmDialog
          title={`${powerActionLabel[asking]} ${name}?`}
          confirmLabel={`${powerActionLabel[asking]} ${name}`}
          danger={asking === 'stop'}
          onConfirm={() => void run(asking)}
          onCancel={() => setAsking(undefined)}
        >
          <p>
            <strong>{name}</strong> (VM {row.vmid} on {row.node}, {row.clusterName})
          </p>
          <p>{consequence[asking]}</p>
          {operatorMade && <p>{operatorWarning}</p>}
        </ConfirmDialog>
      )}
    </section>
  );
}
