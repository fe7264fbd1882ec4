/**
 * The connect wizard opened from Take in manifests…: what the providers-config
 * entry gave (main's draft), what it says that the profile does not take
 * (main's words: the token and the trust are asked for here), and, once the
 * cluster was reached, what of it the cluster lacks. Only shown, never decided.
 */
import type { WizardSeed } from '../../../stores/settings';
import './wizard-seed.css';

const list = (xs: readonly string[]) => (xs.length > 0 ? xs.join(', ') : '—');

export function SeedSummary({ seed, fitNotes }: { seed: WizardSeed; fitNotes: readonly string[] }) {
  const d = seed.draft;
  const rows: [string, string][] = [
    ['URL', d.url],
    ['Nodes', list(d.nodes)],
    ['Seed storage', d.isoStorage],
    ...(d.storage !== undefined ? ([['Disk storage', d.storage]] as [string, string][]) : []),
    ...(d.bridge !== undefined ? ([['Bridge', d.bridge]] as [string, string][]) : []),
    ...(d.vlanTag !== undefined ? ([['VLAN tag', String(d.vlanTag)]] as [string, string][]) : []),
    ...(d.vmidRange ? ([['VMID range', `${d.vmidRange.min}–${d.vmidRange.max}`]] as [string, string][]) : []),
    ['Templates', list(Object.entries(d.templates).map(([k, t]) => `${k} (${t.vmid})`))],
    [
      'Machine types',
      list(
        Object.entries(d.machineTypes).map(
          ([k, m]) =>
            `${k} (${m.cores} ${m.cores === 1 ? 'core' : 'cores'}, ${m.memoryMiB} MiB${m.diskGiB !== undefined ? `, ${m.diskGiB} GiB` : ''})`,
        ),
      ),
    ],
    ...(d.requestTimeoutSeconds !== undefined ? ([['Request timeout', `${d.requestTimeoutSeconds} s`]] as [string, string][]) : []),
    ...(d.vendorData !== undefined ? ([['Vendor data', `${d.vendorData.split('\n').length} lines`]] as [string, string][]) : []),
    ...(d.installGuestAgent !== undefined
      ? ([['Guest agent', d.installGuestAgent ? 'installed' : 'not installed']] as [string, string][])
      : []),
  ];
  return (
    <section className="wizard-seed" aria-label="From the providers-config entry">
      <h4>
        From the operator’s entry <code>{seed.provider}</code>
      </h4>
      <dl>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <ul aria-label="What the entry does not give" className="muted">
        {[...seed.notes, ...fitNotes].map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </section>
  );
}
