/**
 * The confirmation of a power action (stop and reboot always; start and
 * shut down when an operator-made VM is among the targets): names the VMs,
 * says what happens to the guest, and asks for the operator acknowledgement
 * when one is needed.
 */
import { useState } from 'react';
import { isPowerAction } from '../../../../../shared/domain/bulk-actions';
import type { PowerAction } from '../../../../../shared/domain/power-actions';
import { proxyActionLabel } from '../../../../../shared/domain/proxy-actions';
import { ConfirmDialog } from '../../../components/common/ConfirmDialog';
import { useProxyActions, type PendingAction } from './action-store';
import { ActionTargets, OperatorAcknowledgement, operatorCount } from './ActionTargets';

const consequence: Record<PowerAction, string> = {
  start: 'Proxmox starts the VM (a hibernated one resumes).',
  shutdown:
    'Proxmox asks the guest to shut down cleanly (ACPI). A guest that ignores it keeps running: the task then offers Stop or Wait longer.',
  stop: 'Proxmox stops the VM at once, like pulling the plug: the guest gets no chance to shut down cleanly, and connections through it drop.',
  reboot: 'The guest restarts: connections through it drop until it is back.',
};

export const nameOf = (rows: PendingAction['rows']) =>
  rows.length === 1 ? (rows[0]!.name ?? `VM ${rows[0]!.vmid}`) : `${rows.length} proxies`;

export function ConfirmPower({ pending }: { pending: PendingAction }) {
  const runPower = useProxyActions((s) => s.runPower);
  const cancel = useProxyActions((s) => s.cancel);
  const [acknowledged, setAcknowledged] = useState(false);
  if (!isPowerAction(pending.action)) return null;
  const label = proxyActionLabel[pending.action];
  const blocked = pending.needsAcknowledgement && !acknowledged;
  return (
    <ConfirmDialog
      title={`${label} ${nameOf(pending.rows)}?`}
      confirmLabel={`${label} ${nameOf(pending.rows)}`}
      danger={pending.action === 'stop'}
      busy={blocked}
      onConfirm={() => void runPower(pending)}
      onCancel={cancel}
    >
      <p>{consequence[pending.action]}</p>
      <ActionTargets pending={pending} />
      {pending.needsAcknowledgement && (
        <OperatorAcknowledgement checked={acknowledged} onChange={setAcknowledged} {...operatorCount(pending.rows)} first />
      )}
    </ConfirmDialog>
  );
}
