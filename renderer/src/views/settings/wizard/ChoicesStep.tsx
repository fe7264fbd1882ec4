/**
 * Page 4: what the doctor discovered, pre-chosen as it suggests, for the
 * admin to confirm or change: name, nodes, seed storage, templates, bridge,
 * VMID range, a first machine type, and where the secret is kept.
 */
import type { DiscoverySection } from '../../../../../shared/channels/doctor';
import type { VaultBackend } from '../../../../../shared/domain/profile';
import { Field, StateBadge } from '../../../components/common';
import { formatBytes } from '../../../format';
import type { Choices } from './wizard-flow';

export interface ChoicesStepProps {
  discovery: DiscoverySection;
  seedReason: string | undefined;
  value: Choices;
  onChange: (value: Choices) => void;
  vault: VaultBackend | undefined;
  /** Why the name cannot be saved (one already connected), said while it is typed. */
  nameProblem?: string | undefined;
}

const toggle = (list: string[], item: string, on: boolean) => (on ? [...new Set([...list, item])] : list.filter((x) => x !== item));

export function ChoicesStep({ discovery, seedReason, value, onChange, vault, nameProblem }: ChoicesStepProps) {
  const d = discovery.data;
  const storages = [...new Map(d.isoStorages.map((s) => [s.storage, s])).values()];
  const bridges = [...new Set(d.bridges.map((b) => b.iface))];
  const set = (change: Partial<Choices>) => onChange({ ...value, ...change });
  const chosenTemplate = (vmid: number) => Object.values(value.templates).some((t) => t.vmid === vmid);
  return (
    <div className="wizard-page choices">
      <Field label="Cluster name" problem={nameProblem} help="Proxmox's own name for it, suggested; any name you will recognise.">
        <input value={value.name} onChange={(e) => set({ name: e.target.value })} />
      </Field>

      <fieldset>
        <legend>Nodes</legend>
        {d.nodes.map((n) => (
          <label key={n.node} className="choice">
            <input
              type="checkbox"
              checked={value.nodes.includes(n.node)}
              onChange={(e) => set({ nodes: toggle(value.nodes, n.node, e.target.checked) })}
            />
            {n.node} <StateBadge state={n.status} />
          </label>
        ))}
      </fieldset>

      <Field label="Seed storage" help={seedReason}>
        <select value={value.isoStorage} onChange={(e) => set({ isoStorage: e.target.value })}>
          <option value="">— choose —</option>
          {storages.map((s) => (
            <option key={s.storage} value={s.storage}>
              {s.storage} ({s.type}
              {s.availBytes !== undefined ? `, ${formatBytes(s.availBytes)} free` : ''}
              {s.dedicated ? ', ISO only' : ''})
            </option>
          ))}
        </select>
      </Field>

      <fieldset>
        <legend>Templates</legend>
        {!d.templates.some((t) => t.suitable) && (
          <p className="muted">
            {d.templates.length === 0 ? 'No templates found.' : 'No suitable template found.'} Save the cluster and Egress Desk builds one
            from a cloud image (Save and build a template), or make one in Proxmox and check again.
          </p>
        )}
        {d.templates.map((t) => (
          <label key={t.vmid} className="choice">
            <input
              type="checkbox"
              disabled={!t.suitable}
              checked={chosenTemplate(t.vmid)}
              onChange={(e) => {
                // By VMID: an imported entry's catalogue keys are its own, not the template's name.
                const rest = Object.fromEntries(Object.entries(value.templates).filter(([, x]) => x.vmid !== t.vmid));
                set({ templates: e.target.checked ? { ...rest, [t.name.slice(0, 64)]: { vmid: t.vmid } } : rest });
              }}
            />
            {t.name} ({t.vmid} on {t.node}){' '}
            <StateBadge state={t.suitable ? 'suitable' : 'unsuitable'} label={t.suitable ? 'Suitable' : 'Unsuitable'} />
            {!t.suitable && <span className="muted"> {t.problems.map((p) => p.message).join('; ')}</span>}
          </label>
        ))}
      </fieldset>

      <div className="field-row">
        <Field label="Bridge">
          <select value={value.bridge} onChange={(e) => set({ bridge: e.target.value })}>
            <option value="">— Proxmox default —</option>
            {bridges.map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </Field>
        <Field label="Lowest VMID" help={`${d.vmidRange.free} free in the suggested range`}>
          <input type="number" value={value.vmidMin} onChange={(e) => set({ vmidMin: Number(e.target.value) })} />
        </Field>
        <Field label="Highest VMID">
          <input type="number" value={value.vmidMax} onChange={(e) => set({ vmidMax: Number(e.target.value) })} />
        </Field>
      </div>

      <div className="field-row">
        <Field label="Machine type name">
          <input value={value.machineType.name} onChange={(e) => set({ machineType: { ...value.machineType, name: e.target.value } })} />
        </Field>
        <Field label="Cores">
          <input
            type="number"
            min={1}
            value={value.machineType.cores}
            onChange={(e) => set({ machineType: { ...value.machineType, cores: Number(e.target.value) } })}
          />
        </Field>
        <Field label="Memory (MiB)">
          <input
            type="number"
            min={16}
            step={256}
            value={value.machineType.memoryMiB}
            onChange={(e) => set({ machineType: { ...value.machineType, memoryMiB: Number(e.target.value) } })}
          />
        </Field>
      </div>

      <Field label="Keep the token secret" help={vault?.detail}>
        <select value={value.secretStorage} onChange={(e) => set({ secretStorage: e.target.value as Choices['secretStorage'] })}>
          {vault?.protected && <option value="keyring">Encrypted with the system keyring</option>}
          <option value="session">Until the app quits (ask again next time)</option>
          <option value="plaintext">On disk without real protection</option>
        </select>
      </Field>
    </div>
  );
}
