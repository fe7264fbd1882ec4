/**
 * Recreate broken proxies (issue 16): one task per VM that deletes it and
 * creates it again with the same name, template, machine type and
 * user-data, under a new UID. It asks first, naming the VMs (the old VM and
 * its disk are gone for good). The template and machine type are the ones
 * the app made it with; a proxy it has no record of (operator-made) needs
 * them picked here. Egress Desk keeps no readable copy of the user-data and
 * Proxmox cannot read a seed back, so the editor starts from the Create
 * dialog's first preset, to replace with the proxy's own when it differs.
 */
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
import { presets } from '../../create/presets';

/** The editor starts from the Create dialog's first preset: a working proxy when the old user-data is not at hand. */
const startingUserData = () => presets[0]!.render(presets[0]!.defaultPort);

export function RecreateDialog({ pending }: { pending: PendingAction }) {
  const cancel = useProxyActions((s) => s.cancel);
  const recreate = useTasks((s) => s.recreate);
  const clusterId = pending.rows[0]!.clusterId;
  const profile = useProfiles((s) => s.list?.profiles.find((p) => p.id === clusterId));
  // Rows the app made know their template and machine type; the others need them picked.
  const unknownOrigin = pending.rows.some((r) => !r.template || !r.machineType);
  // Issue 23 item 4: where the app keeps the user-data it put into the seed, the recreate uses it unless told otherwise.
  const allKept = pending.rows.every((r) => r.userDataKept);

  const [template, setTemplate] = useState('');
  const [machineType, setMachineType] = useState('');
  const [cloudInit, setCloudInit] = useState(startingUserData);
  const [keepUserData, setKeepUserData] = useState(allKept);
  const asked = !keepUserData || !allKept;
  const [acknowledged, setAcknowledged] = useState(false);
  const [tried, setTried] = useState(false);
  const { busy, error, send } = useDialogSend(pending.rows);

  const problems = {
    template: unknownOrigin && !template ? 'Pick the template it was made from.' : undefined,
    machineType: unknownOrigin && !machineType ? 'Pick its machine type.' : undefined,
    cloudInit: asked ? userDataProblem(cloudInit, { presetsAbove: true }) : undefined,
    ack: pending.needsAcknowledgement && !acknowledged ? 'Tick the acknowledgement first.' : undefined,
  };
  const submit = async () => {
    setTried(true);
    if (problems.template || problems.machineType || problems.cloudInit || problems.ack) return;
    await send(() =>
      perCluster('recreate', pending.rows, (id, group) =>
        recreate({
          clusterId: id,
          targets: group.map((r) => ({ ...targetOf(r), ...(asked ? { cloudInit } : {}) })),
          ...(template ? { template } : {}),
          ...(machineType ? { machineType } : {}),
          ...(pending.needsAcknowledgement ? { acknowledgeOperatorWarning: true as const } : {}),
        }),
      ),
    );
  };

  return (
    <Dialog
      title={`Recreate ${nameOf(pending.rows)}?`}
      size="wide"
      onClose={cancel}
      footer={
        <>
          <button type="button" data-autofocus onClick={cancel}>
            Cancel
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => void submit()}>
            {busy ? 'Recreating…' : `Recreate ${nameOf(pending.rows)}`}
          </button>
        </>
      }
    >
      <p>
        Each VM is deleted with its disk and seed, then created again. It keeps its name, template, machine type and{' '}
        {asked ? 'the user-data below' : 'user-data'}; it gets a new UID (and usually a new VMID and address). If the task stops between the
        two halves, Tasks offers Resume to finish the create.
      </p>
      <ActionTargets pending={pending} />
      {pending.rows.length === 1 && !unknownOrigin && (
        <p>
          Template <strong>{pending.rows[0]!.template}</strong>, machine type <strong>{pending.rows[0]!.machineType}</strong>.
        </p>
      )}
      {unknownOrigin && (
        <>
          <p>Egress Desk did not make {pending.rows.length === 1 ? 'it' : 'some of them'}, so it does not know what from: pick them.</p>
          <Field label="Template" problem={tried ? problems.template : undefined}>
            <select value={template} onChange={(e) => setTemplate(e.target.value)}>
              <option value="">Pick a template</option>
              {Object.keys(profile?.templates ?? {}).map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Machine type" problem={tried ? problems.machineType : undefined}>
            <select value={machineType} onChange={(e) => setMachineType(e.target.value)}>
              <option value="">Pick a machine type</option>
              {Object.entries(profile?.machineTypes ?? {}).map(([key, m]) => (
                <option key={key} value={key}>
                  {key}: {m.cores} vCPU, {m.memoryMiB} MiB
                </option>
              ))}
            </select>
          </Field>
        </>
      )}
      {allKept && (
        <label className="checkbox-line">
          <input type="checkbox" checked={keepUserData} onChange={(e) => setKeepUserData(e.target.checked)} /> Use the user-data Egress Desk
          put into {pending.rows.length === 1 ? 'its seed' : 'their seeds'} (kept sealed; the new seed gets a new instance-id)
        </label>
      )}
      {asked && (
        <UserDataField
          value={cloudInit}
          onChange={setCloudInit}
          problem={tried ? problems.cloudInit : undefined}
          help={
            allKept
              ? 'The new user-data for the new VM; its seed gets a new instance-id.'
              : 'It starts from the Squid preset: Egress Desk has no record of the user-data it was made with (made outside this app, or its record was lost), so paste it if it differs. The new seed gets a new instance-id.'
          }
        />
      )}
      {pending.needsAcknowledgement && (
        <OperatorAcknowledgement checked={acknowledged} onChange={setAcknowledged} {...operatorCount(pending.rows)} />
      )}
      {tried && problems.ack && <p className="field-problem">{problems.ack}</p>}
      {error && <ErrorNotice error={error} title="The recreate did not start" />}
    </Dialog>
  );
}
