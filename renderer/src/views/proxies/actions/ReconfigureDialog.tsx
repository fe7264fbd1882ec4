/**
 * Reconfigure proxies (issue 16): a machine type of the profile (cores and
 * memory), a larger boot disk, new cloud-init user-data, each optional. It
 * says when each change takes effect on a running VM (qemu-server
 * vmconfig_hotplug_pending, summarised in main/core/provider/operations/reconfigure.ts):
 * the disk at once, cores and memory at the next start by Proxmox (memory
 * live only with memory hotplug and NUMA), the user-data at the next boot;
 * so a running VM is rebooted unless the user says not to. A disk not
 * larger than today's is refused here and by main (a disk only grows).
 * Issue 23 item 9: before it runs the dialog lists, per VM, each value
 * before and after (or that it stays); a machine type never grows the disk.
 */
import { NetworkFields } from '../../network/NetworkFields';
import { useNetworkChoice } from '../../network/network-draft';
import { useState } from 'react';
import { Dialog } from '../../../components/common/Dialog';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import { Field } from '../../../components/common/Field';
import { useProfiles } from '../../../stores/profiles';
import { useTasks } from '../../../stores/tasks';
import { useProxyActions, type PendingAction } from './action-store';
import { ActionTargets, OperatorAcknowledgement, operatorCount } from './ActionTargets';
import { nameOf } from './ConfirmAction';
import { perCluster, targetOf } from './run-actions';
import { useDialogSend } from './use-dialog-send';
import { userDataProblem } from '../../../../../shared/domain/user-data';
import { UserDataField } from './UserDataField';

const GIB = 1024 ** 3;

/** The largest boot disk among the VMs, in whole GiB (rounded up): a new size must be larger. */
function largestDiskGiB(rows: PendingAction['rows']): number | undefined {
  const sizes = rows.map((r) => r.diskBytes).filter((b): b is number => b !== undefined);
  return sizes.length ? Math.ceil(Math.max(...sizes) / GIB) : undefined;
}

export function diskProblem(raw: string, todayGiB: number | undefined): string | undefined {
  if (raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) return 'Give the size in whole GiB.';
  if (todayGiB !== undefined && n <= todayGiB) return `A disk only grows: give more than today's ${todayGiB} GiB.`;
  return undefined;
}

const memWords = (mib: number | undefined) => (mib === undefined ? '?' : mib >= 1024 ? `${+(mib / 1024).toFixed(1)} GiB` : `${mib} MiB`);

/** One VM's change, as the user reads it before it runs: before → after, or "stays". */
export function changeLines(
  row: PendingAction['rows'][number],
  machine: { cores: number; memoryMiB: number } | undefined,
  diskGiB: number | undefined,
  userData: boolean,
): string[] {
  const todayDisk = row.diskBytes === undefined ? undefined : Math.ceil(row.diskBytes / GIB);
  const change = (what: string, before: string, after: string | undefined) =>
    after === undefined || after === before ? `${what}: ${before} (stays)` : `${what}: ${before} → ${after}`;
  return [
    change('CPU', `${row.cores ?? '?'} vCPU`, machine && `${machine.cores} vCPU`),
    change('Memory', memWords(row.memoryMiB), machine && memWords(machine.memoryMiB)),
    change('Boot disk', todayDisk === undefined ? '?' : `${todayDisk} GiB`, diskGiB === undefined ? undefined : `${diskGiB} GiB`),
    userData ? 'User-data: replaced (a new seed with a new instance-id)' : 'User-data: stays',
  ];
}

export function ReconfigureDialog({ pending }: { pending: PendingAction }) {
  const cancel = useProxyActions((s) => s.cancel);
  const reconfigure = useTasks((s) => s.reconfigure);
  const clusterId = pending.rows[0]!.clusterId;
  const machineTypes = useProfiles((s) => s.list?.profiles.find((p) => p.id === clusterId)?.machineTypes) ?? {};
  const todayGiB = largestDiskGiB(pending.rows);
  const running = pending.rows.some((r) => r.status === 'running');

  const [machineType, setMachineType] = useState('');
  const [disk, setDisk] = useState('');
  const [changeUserData, setChangeUserData] = useState(false);
  const [cloudInit, setCloudInit] = useState('');
  const [reboot, setReboot] = useState(true);
  const [acknowledged, setAcknowledged] = useState(false);
  const [moveNetwork, setMoveNetwork] = useState(false);
  const [tried, setTried] = useState(false);
  const { busy, error, send } = useDialogSend(pending.rows);
  // Issue 24: the bridges every selected proxy's node has.
  const nodes = [...new Set(pending.rows.flatMap((r) => (r.node ? [r.node] : [])))];
  const net = useNetworkChoice(moveNetwork ? clusterId : undefined, undefined, nodes, error, nodes.join(', '));
  const moved = moveNetwork ? net.check.network : undefined;
  const netChange =
    moved && (moved.bridge !== undefined || moved.vlanTag !== undefined)
      ? {
          ...(moved.bridge !== undefined ? { bridge: moved.bridge } : {}),
          ...(moved.vlanTag !== undefined ? { vlanTag: moved.vlanTag } : {}),
        }
      : undefined;

  const problems = {
    disk: diskProblem(disk, todayGiB),
    cloudInit: changeUserData ? userDataProblem(cloudInit, { presetsAbove: true }) : undefined,
    nothing:
      !machineType && disk.trim() === '' && !changeUserData && !netChange
        ? 'Change at least one thing: the machine type, the disk, the user-data or the network.'
        : undefined,
    ack: pending.needsAcknowledgement && !acknowledged ? 'Tick the acknowledgement first.' : undefined,
  };
  const submit = async () => {
    setTried(true);
    if (problems.disk || problems.cloudInit || problems.nothing || problems.ack || (moveNetwork && !net.ok)) return;
    await send(() =>
      perCluster('reconfigure', pending.rows, (id, group) =>
        reconfigure({
          clusterId: id,
          targets: group.map(targetOf),
          ...(machineType ? { machineType } : {}),
          ...(disk.trim() ? { diskGiB: Number(disk) } : {}),
          ...(changeUserData ? { cloudInit } : {}),
          ...(netChange ? { network: netChange } : {}),
          ...(running ? { reboot } : {}),
          ...(pending.needsAcknowledgement ? { acknowledgeOperatorWarning: true as const } : {}),
        }),
      ),
    );
  };

  return (
    <Dialog
      title={`Reconfigure ${nameOf(pending.rows)}`}
      size="wide"
      onClose={cancel}
      footer={
        <>
          <button type="button" onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={busy} onClick={() => void submit()}>
            {busy ? 'Reconfiguring…' : `Reconfigure ${nameOf(pending.rows)}`}
          </button>
        </>
      }
    >
      <ActionTargets pending={pending} />
      <Field
        label="Machine type"
        help="Cores and memory only (a machine type's disk size is for new proxies; give a disk size below to grow this one): they take effect at the next start by Proxmox (memory at once only with memory hotplug and NUMA on)."
      >
        <select value={machineType} onChange={(e) => setMachineType(e.target.value)}>
          <option value="">Keep as it is</option>
          {Object.entries(machineTypes).map(([key, m]) => (
            <option key={key} value={key}>
              {key}: {m.cores} vCPU, {memWords(m.memoryMiB)}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label="Boot disk (GiB)"
        problem={tried || disk ? problems.disk : undefined}
        help={`Larger only${todayGiB !== undefined ? ` (today ${todayGiB} GiB)` : ''}; grows at once, even while it runs. Empty keeps it.`}
      >
        <input type="number" inputMode="numeric" min={(todayGiB ?? 0) + 1} value={disk} onChange={(e) => setDisk(e.target.value)} />
      </Field>
      <label className="checkbox-line">
        <input type="checkbox" checked={changeUserData} onChange={(e) => setChangeUserData(e.target.checked)} /> Replace the cloud-init
        user-data
      </label>
      {changeUserData && (
        <UserDataField
          value={cloudInit}
          onChange={setCloudInit}
          problem={tried ? problems.cloudInit : undefined}
          help="A new seed (same volume name) with a new instance-id, so cloud-init runs again at the next boot. The old seed is replaced only after the new one is uploaded."
        />
      )}
      <label className="checkbox-line">
        <input type="checkbox" checked={moveNetwork} onChange={(e) => setMoveNetwork(e.target.checked)} /> Move to another bridge or VLAN
      </label>
      {moveNetwork && <NetworkFields {...net.fields} withAddresses={false} open onChange={net.update} />}
      <section className="reconfigure-changes" aria-label="What will change">
        <h3>What will change</h3>
        {pending.rows.map((r) => (
          <div key={`${r.clusterId}/${r.vmid}`}>
            {pending.rows.length > 1 && <strong>{r.name ?? `VM ${r.vmid}`}</strong>}
            <ul className="plain-list">
              {changeLines(
                r,
                machineTypes[machineType],
                diskProblem(disk, todayGiB) || !disk.trim() ? undefined : Number(disk),
                changeUserData,
              ).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </div>
        ))}
      </section>
      {running && (
        <label className="checkbox-line">
          <input type="checkbox" checked={reboot} onChange={(e) => setReboot(e.target.checked)} /> Reboot it when a change waits for the
          next start (connections through it drop until it is back)
        </label>
      )}
      {pending.needsAcknowledgement && (
        <OperatorAcknowledgement checked={acknowledged} onChange={setAcknowledged} {...operatorCount(pending.rows)} />
      )}
      {tried && (problems.nothing ?? problems.ack) && <p className="field-problem">{problems.nothing ?? problems.ack}</p>}
      {error && <ErrorNotice error={error} title="The reconfigure did not start" />}
    </Dialog>
  );
}
