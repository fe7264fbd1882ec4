/**
 * What every action's dialog shows: the VMs it acts on, by name, node and
 * cluster; the selected VMs it leaves out and why; and, when an
 * operator-made VM is among them, the operator warning with a checkbox the
 * user must tick (explicit acknowledgement) before the action can go.
 */
import { useId } from 'react';
import { operatorWarning } from '../../../../../shared/domain/proxy-actions';
import type { PendingAction } from './action-store';

export function ActionTargets({ pending }: { pending: PendingAction }) {
  return (
    <>
      <ul className="plain-list confirm-list" aria-label="The proxies it acts on">
        {pending.rows.map((r) => (
          <li key={r.key}>
            <strong>{r.name}</strong> (VM {r.vmid} on {r.node}, {r.clusterName}){r.ours === false ? ', operator-made' : ''}
          </li>
        ))}
      </ul>
      {pending.skipped.length > 0 && (
        <>
          <p>Left out, since the action does not apply to them:</p>
          <ul className="plain-list confirm-list" aria-label="Left out">
            {pending.skipped.map(({ row, reason }) => (
              <li key={row.key}>
                <strong>{row.name ?? `VM ${row.vmid}`}</strong>: {reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/**
 * The operator warning and its checkbox; render only when `pending.needsAcknowledgement`. `first`: the checkbox takes
 * the dialog's first focus (a confirmation with nothing else to fill: Space ticks it, then Tab to the action).
 */
export function OperatorAcknowledgement({
  checked,
  onChange,
  first = false,
  operatorMade = 1,
  of = operatorMade,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  first?: boolean;
  /** How many of the `of` proxies the operator made (the words count them). */
  operatorMade?: number;
  of?: number;
}) {
  const id = useId();
  return (
    <div className="notice notice-warn operator-ack">
      <p id={`${id}-warning`}>{operatorWarning(operatorMade, of)}</p>
      <label>
        <input
          type="checkbox"
          checked={checked}
          data-autofocus={first || undefined}
          aria-describedby={`${id}-warning`}
          onChange={(e) => onChange(e.target.checked)}
        />{' '}
        I understand: the operator may undo this change
      </label>
    </div>
  );
}

/** OperatorAcknowledgement's count for these rows: how many of them the operator made. */
export const operatorCount = (rows: readonly { ours?: boolean | undefined }[]) => ({
  operatorMade: rows.filter((r) => r.ours === false).length,
  of: rows.length,
});
