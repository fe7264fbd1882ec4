/**
 * Migrate proxies to another node of their cluster (issue 16). The target
 * list offers only the nodes the inventory shows as suitable
 * (shared/domain/migrate-targets.ts) and names the others with why not;
 * main judges again from a fresh read before anything moves. Running VMs
 * move online, stopped ones offline. A seed on node-local storage is
 * rebuilt on the target (Proxmox refuses to migrate a local CD-ROM image,
 * and cannot read an ISO back) from the user-data the app put into it
 * (kept sealed in main, VmRow.userDataKept); only for a proxy the app has
 * no record of is it asked for here, with the presets to start from.
 */
import { useMemo, useState } from 'react';
import { migrateTargets, seedStorageShared } from '../../../../../shared/domain/migrate-targets';
import { Dialog } from '../../../components/common/Dialog';
import { ErrorNotice } from '../../../components/common/ErrorNotice';
import { Field } from '../../../components/common/Field';
import { useInventory } from '../../../stores/inventory';
import { useProfiles } from '../../../stores/profiles';
import { useTasks } from '../../../stores/tasks';
import { useProxyActions, type PendingAction } from './action-store';
import { ActionTargets, OperatorAcknowledgement, operatorCount } from './ActionTargets';
import { nameOf } from './ConfirmAction';
import { perCluster, targetOf } from './run-actions';
import { useDialogSend } from './use-dialog-send';
import { userDataProblem } from '../../../../../shared/domain/user-data';
import { UserDataField } from './UserDataField';

export function MigrateDialog({ pending }: { pending: PendingAction }) {
  const cancel = useProxyActions((s) => s.cancel);
  const migrate = useTasks((s) => s.migrate);
  const first = pending.rows[0]!;
  const clusterId = first.clusterId;
  const nodes = useInventory((s) => s.clusters.find((c) => c.clusterId === clusterId)?.nodes) ?? [];
  const profile = useProfiles((s) => s.list?.profiles.find((p) => p.id === clusterId));
  const isoStorage = profile?.isoStorage ?? '';
  const diskStorage = profile?.storage;
  const profileNodes = profile?.nodes;
  // A node is suitable only when it is for every VM moved: judge each one, keep the first reason.
  const targets = useMemo(() => {
    const candidates = profileNodes?.length ? profileNodes : nodes.map((n) => n.node);
    const verdicts = pending.rows.map((r) => migrateTargets(r, nodes, candidates, { isoStorage, diskStorage }));
    return candidates
      .filter((node) => verdicts.some((v) => v.some((t) => t.node === node)))
      .map((node) => {
        const forNode = verdicts.map((v) => v.find((t) => t.node === node));
        if (forNode.some((t) => t === undefined)) return { node, suitable: false, reason: 'Some of these proxies are already on it.' };
        const bad = forNode.find((t) => t && !t.suitable);
        return bad ? { node, suitable: false, reason: bad.reason } : { node, suitable: true };
      })
      .sort((a, b) => Number(b.suitable) - Number(a.suitable));
  }, [pending.rows, nodes, profileNodes, isoStorage, diskStorage]);
  const suitable = targets.filter((t) => t.suitable);
  const unsuitable = targets.filter((t) => !t.suitable);
  const localSeed = pending.rows.some((r) => !seedStorageShared(r.node, nodes, isoStorage));
  // Issue 23 item 4: the user-data is asked for only where the app keeps none (a proxy it has no record of).
  const unkept = localSeed ? pending.rows.filter((r) => !r.userDataKept) : [];
  const askUserData = unkept.length > 0;
  const running = pending.rows.filter((r) => r.status === 'running');

  const [to, setTo] = useState(suitable[0]?.node ?? '');
  const [cloudInit, setCloudInit] = useState('');
  const [acknowledged, setAcknowledged] = useState(false);
  const [tried, setTried] = useState(false);
  const { busy, error, send } = useDialogSend(pending.rows);

  const problems = {
    to: !to
      ? 'Pick the node to move to.'
      : pending.rows.some((r) => r.node === to)
        ? 'Pick a node other than the one it is on.'
        : undefined,
    cloudInit: askUserData ? userDataProblem(cloudInit, { presetsAbove: true }) : undefined,
    ack: pending.needsAcknowledgement && !acknowledged ? 'Tick the acknowledgement first.' : undefined,
  };
  const submit = async () => {
    setTried(true);
    if (problems.to || problems.cloudInit || problems.ack) return;
    await send(() =>
      perCluster('migrate', pending.rows, (id, group) =>
        migrate({
          clusterId: id,
          to,
          targets: group.map((r) => ({ ...targetOf(r), ...(askUserData && !r.userDataKept ? { cloudInit } : {}) })),
          ...(pending.needsAcknowledgement ? { acknowledgeOperatorWarning: true as const } : {}),
        }),
      ),
    );
  };

  return (
    <Dialog
      title={`Migrate ${nameOf(pending.rows)}`}
      size="wide"
      onClose={cancel}
      footer={
        <>
          <button type="button" onClick={cancel}>
            Cancel
          </button>
          <button
            type="button"
            className={running.length ? 'danger' : 'primary'}
            disabled={busy || suitable.length === 0}
            onClick={() => void submit()}
          >
            {busy ? 'Migrating…' : `Migrate to ${to || '…'}`}
          </button>
        </>
      }
    >
      <ActionTargets pending={pending} />
      {suitable.length > 0 ? (
        <Field label="Move to node" problem={tried ? problems.to : undefined}>
          <select value={to} onChange={(e) => setTo(e.target.value)}>
            {suitable.map((t) => (
              <option key={t.node} value={t.node}>
                {t.node}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <p className="field-problem">No node of this cluster can take {pending.rows.length === 1 ? 'it' : 'them'} now (see why below).</p>
      )}
      {unsuitable.length > 0 && (
        <>
          <p>Not offered:</p>
          <ul className="plain-list" aria-label="Nodes not offered">
            {unsuitable.map((t) => (
              <li key={t.node}>
                <strong>{t.node}</strong>: {t.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        {running.length > 0
          ? `Online: ${running.length === pending.rows.length ? 'it runs' : `${running.length} of them run`}, so Proxmox copies its memory while it keeps running, then switches over with a short pause (migrate_downtime, 0.1 s by default); connections through it may drop.`
          : 'Offline: it is stopped, so Proxmox moves its configuration (and copies any local disk); it stays stopped.'}{' '}
        A disk on node-local storage is copied too (with-local-disks).
      </p>
      {localSeed ? (
        <>
          <p>
            The seed ISO ({isoStorage}) is local to the node, and Proxmox cannot migrate a VM with a local ISO in its CD-ROM. Egress Desk
            builds the same seed (same name, same bytes) on the target, detaches it for the move, re-attaches it there and deletes the old
            copy only after the move succeeded. So the proxy keeps its instance-id and cloud-init does not run again.
            {askUserData
              ? ''
              : ` It uses the user-data it put into ${pending.rows.length === 1 ? 'that seed' : 'those seeds'} itself: nothing to give here.`}
          </p>
          {askUserData && (
            <>
              <p>
                Egress Desk has no record of the user-data of {unkept.length === 1 ? unkept[0]!.name : `${unkept.length} of them`} (made
                outside this app, or its record was lost): give it below.
              </p>
              <UserDataField
                value={cloudInit}
                onChange={setCloudInit}
                problem={tried ? problems.cloudInit : undefined}
                help="Paste the user-data this proxy was made with: a different one gives a different seed, which the migrate refuses (the seed's size is compared)."
              />
            </>
          )}
        </>
      ) : (
        <p>The seed ISO is on shared storage ({isoStorage}): it stays where it is and the proxy keeps it.</p>
      )}
      {pending.needsAcknowledgement && (
        <OperatorAcknowledgement checked={acknowledged} onChange={setAcknowledged} {...operatorCount(pending.rows)} />
      )}
      {tried && problems.ack && <p className="field-problem">{problems.ack}</p>}
      {error && <ErrorNotice error={error} title="The migrate did not start" />}
    </Dialog>
  );
}
