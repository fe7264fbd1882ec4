/**
 * The builder's form (issue 14): the image (the catalogue, Debian 13 amd64 by
 * default), the node, where the disk and the download go (only storages that
 * can: disks for the template, import content for the image), the network,
 * name and VMID (prefilled from the preflight), and the checksum the user
 * copies from the publisher's list, whose address is shown as text.
 */
import type { BuildPreflightView } from '../../../../../shared/channels/templates';
import { CHECKSUM_ALGORITHMS, CUSTOM_IMAGE, IMAGE_CATALOGUE, catalogueImage } from '../../../../../shared/domain/image-catalogue';
import type { ProfileSummary } from '../../../../../shared/domain/profile';
import { CopyButton, Field } from '../../../components/common';
import { formatBytes } from '../../../format';
import { checksumOf, customImageOf, isCustom, type BuilderForm } from './builder-form';

export interface BuildFormProps {
  profile: ProfileSummary;
  value: BuilderForm;
  onChange: (value: BuilderForm) => void;
  preflight: BuildPreflightView | undefined;
  disabled?: boolean;
}

export function BuildForm({ profile, value, onChange, preflight: pf, disabled }: BuildFormProps) {
  const set = (change: Partial<BuilderForm>) => onChange({ ...value, ...change });
  const image = catalogueImage(value.image);
  const checksum = checksumOf(value);
  const custom = isCustom(value) ? customImageOf(value) : undefined;
  const forDisks = pf?.storages.filter((s) => s.images && s.active) ?? [];
  const forImport = pf?.storages.filter((s) => s.importContent && s.active) ?? [];
  const free = (b: number | undefined) => (b !== undefined ? `, ${formatBytes(b)} free` : '');
  return (
    <fieldset className="builder-form" disabled={disabled}>
      <Field label="Image">
        <select value={value.image} onChange={(e) => set({ image: e.target.value, checksumText: '' })}>
          {IMAGE_CATALOGUE.map((i) => (
            <option key={i.id} value={i.id}>
              {i.label}
            </option>
          ))}
          <option value={CUSTOM_IMAGE.id}>{CUSTOM_IMAGE.label}</option>
        </select>
      </Field>
      {custom && (
        <Field
          label="Image URL"
          problem={value.customUrl.trim() === '' ? undefined : custom.problem}
          help={
            custom.fileName
              ? `The node downloads it and stores it as ${custom.fileName}.`
              : 'An http(s) URL of a .qcow2, .img, .raw or .vmdk cloud image; the node downloads it, not this computer.'
          }
        >
          <input
            type="url"
            value={value.customUrl}
            spellCheck={false}
            placeholder="https://…/image.qcow2"
            onChange={(e) => set({ customUrl: e.target.value })}
          />
        </Field>
      )}
      <div className="field-row">
        <Field label="Node">
          <select
            value={value.node}
            onChange={(e) => set({ node: e.target.value, targetStorage: '', importStorage: '', bridge: profile.bridge ?? '' })}
          >
            {profile.nodes.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </Field>
        <Field label="Template disk storage">
          <select value={value.targetStorage || pf?.targetStorage || ''} onChange={(e) => set({ targetStorage: e.target.value })}>
            {forDisks.length === 0 && <option value={pf?.targetStorage ?? ''}>{pf?.targetStorage ?? '…'}</option>}
            {forDisks.map((s) => (
              <option key={s.storage} value={s.storage}>
                {s.storage} ({s.type}
                {free(s.availBytes)})
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Download to (import storage)"
          help={
            pf && forImport.length === 0
              ? 'No storage on this node takes import content: see the command below.'
              : 'Only storages with import content can hold the downloaded image.'
          }
        >
          <select value={value.importStorage || pf?.importStorage || ''} onChange={(e) => set({ importStorage: e.target.value })}>
            {forImport.length === 0 && <option value="">— none —</option>}
            {forImport.map((s) => (
              <option key={s.storage} value={s.storage}>
                {s.storage} ({s.type}
                {free(s.availBytes)})
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="field-row">
        <Field label="Bridge">
          <select value={value.bridge || pf?.bridge || ''} onChange={(e) => set({ bridge: e.target.value })}>
            {(pf?.bridges.length ? pf.bridges : [pf?.bridge ?? 'vmbr0']).map((b) => (
              <option key={b}>{b}</option>
            ))}
          </select>
        </Field>
        <Field label="VLAN tag" help="Empty: none">
          <input inputMode="numeric" value={value.vlanTag} onChange={(e) => set({ vlanTag: e.target.value })} />
        </Field>
        <Field label="Name">
          <input value={value.name} placeholder={pf?.name ?? `${value.image}-template`} onChange={(e) => set({ name: e.target.value })} />
        </Field>
        <Field label="VMID" help="Outside the proxy range">
          <input inputMode="numeric" value={value.vmid || (pf ? String(pf.vmid) : '')} onChange={(e) => set({ vmid: e.target.value })} />
        </Field>
      </div>
      {image && (
        <div className="builder-checksum">
          <p>
            The publisher lists the {image.checksum.algorithm} checksums at <code className="checksum-url">{image.checksum.listUrl}</code>{' '}
            <CopyButton text={image.checksum.listUrl} label="Copy the checksum list address" />. Open it in your browser and paste the line
            of <code>{image.checksum.listEntry}</code> (or its value): the node then checks the download against it.
          </p>
          <Field
            label={`Checksum (${image.checksum.algorithm})`}
            problem={checksum.problem}
            help={checksum.value ? 'The download will be verified.' : 'Without it the download is not verified.'}
          >
            <input value={value.checksumText} spellCheck={false} onChange={(e) => set({ checksumText: e.target.value })} />
          </Field>
        </div>
      )}
      {custom && (
        <div className="builder-checksum">
          <p>
            The checksum is optional for a custom image: when its publisher gives one, paste the line of{' '}
            <code>{custom.fileName ?? 'the file'}</code> (or its value) and pick its algorithm; the node then checks the download against
            it.
          </p>
          <div className="field-row">
            <Field label="Checksum algorithm">
              <select
                value={value.checksumAlgorithm}
                onChange={(e) => set({ checksumAlgorithm: e.target.value as BuilderForm['checksumAlgorithm'] })}
              >
                {CHECKSUM_ALGORITHMS.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </Field>
            <Field
              label={`Checksum (${value.checksumAlgorithm})`}
              problem={checksum.problem}
              help={checksum.value ? 'The download will be verified.' : 'Without it the download is not verified.'}
            >
              <input value={value.checksumText} spellCheck={false} onChange={(e) => set({ checksumText: e.target.value })} />
            </Field>
          </div>
        </div>
      )}
      <label className="choice">
        <input type="checkbox" checked={value.keepImage} onChange={(e) => set({ keepImage: e.target.checked })} />
        Keep the downloaded image on the storage (for another build)
      </label>
    </fieldset>
  );
}
