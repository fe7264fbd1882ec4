/**
 * Issue 26: a providers-config entry taken in as a draft cluster profile. Driven by the guide's own example
 * entry and by the entry the app's bundle writes (export → import gives back the same profile fields);
 * bad input is refused with the key named, and nothing is drafted; the token and trust are never drafted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildHandoffBundle, type HandoffProfile } from '../../../shared/domain/operator-bundle';
import { importOperatorYaml } from '../../../shared/domain/operator-import';
import { fitDraftToCluster, profileOfferOf, profileWithUrl, sameServerUrl } from '../../../shared/domain/operator-profile';

const GUIDE = join(__dirname, '../../../../shared/seeds/extracted/proxmox-provider-guide.md');

/** The guide's "Cluster-side setup" step 2 example, read from the guide itself. */
function guideEntryYaml(): string {
  const text = readFileSync(GUIDE, 'utf8');
  const block = /Add a provider entry to the providers config[\s\S]*?```yaml\n([\s\S]*?)```/.exec(text)?.[1];
  if (!block) throw new Error('the guide has no example providers-config entry');
  // The guide indents the block inside a numbered list item.
  return block.replace(/^ {3}/gm, '');
}

const entry = (proxmox: Record<string, unknown>, name = 'lab') => ({
  name,
  type: 'proxmox',
  proxmox: {
    url: 'https://pve.lab:8006',
    tokenFile: '/t',
    nodes: ['pv1-1'],
    isoStorage: 'seeds',
    templates: { d: { vmid: 9001 } },
    machineTypes: { s: { cores: 1, memoryMiB: 512 } },
    ...proxmox,
  },
});

describe('a providers-config entry as a draft cluster profile', () => {
  it('drafts the guide’s example entry field for field, and says the token and the CA are the wizard’s to give', () => {
    const r = importOperatorYaml(guideEntryYaml());
    expect(r.problems).toEqual([]);
    expect(r.offers).toHaveLength(1);
    const offer = r.offers[0]!;
    expect(offer.problems).toEqual([]);
    expect(offer.draft).toEqual({
      name: 'proxmox-home',
      url: 'https://192.168.0.8:8006',
      nodes: ['pv1-1'],
      isoStorage: 'proxy-seeds',
      vlanTag: 4,
      templates: { 'debian-13': { vmid: 9001 } },
      machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
    });
    const notes = offer.notes.join('\n');
    expect(notes).toContain('tokenFile /etc/proxy-operator/proxmox/token is a path inside the operator’s pod and is not read');
    expect(notes).toContain('paste the token ID and secret in the wizard');
    expect(notes).toContain('caFile /etc/proxy-operator/proxmox/ca.pem');
    expect(notes).toContain('choose the CA');
  });

  it('never turns insecureSkipTLSVerify into trust: the draft holds no trust, and the note says the wizard decides', () => {
    const offer = profileOfferOf(entry({ insecureSkipTLSVerify: true }));
    expect(offer.problems).toEqual([]);
    expect(offer.draft).toBeDefined();
    expect(Object.keys(offer.draft!)).not.toContain('tls');
    expect(Object.keys(offer.draft!)).not.toContain('token');
    expect(offer.notes.join(' ')).toMatch(/insecureSkipTLSVerify: true is not carried over: the wizard’s trust step/);
    expect(profileOfferOf(entry({ insecureSkipTLSVerify: false })).notes.join(' ')).not.toContain('insecureSkipTLSVerify');
  });

  it('export → import: the entry the app’s bundle writes gives back the same profile fields', () => {
    const profile: HandoffProfile = {
      name: 'Home lab',
      url: 'https://192.168.0.8:8006',
      tls: { mode: 'insecure' },
      token: { secretStorage: 'keyring', tokenId: 'egress@pve!desk' },
      nodes: ['pv1-1', 'pv1-2'],
      isoStorage: 'proxy-seeds',
      storage: 'local-lvm',
      bridge: 'vmbr1',
      vlanTag: 40,
      vmidRange: { min: 120_000, max: 129_999 },
      templates: { 'debian-13': { vmid: 9001 }, 'alpine-3': { vmid: 9002 } },
      machineTypes: { small: { cores: 1, memoryMiB: 1024 }, big: { cores: 4, memoryMiB: 4096, diskGiB: 20 } },
      requestTimeoutSeconds: 90,
      vendorData: '#cloud-config\ntimezone: Europe/Paris\n',
      installGuestAgent: false,
    };
    const bundle = buildHandoffBundle(
      profile,
      [{ name: 'p-1', vmid: 120_001, node: 'pv1-1', template: 'debian-13', machineType: 'small', port: 3128, userData: '#cloud-config\n' }],
      { providerName: 'home-lab', includeCredentials: false },
    );
    if (!bundle.ok) throw new Error(bundle.refusals.join(' '));
    const file = bundle.files.find((f) => f.path === 'providers-config-entry.yaml')!;
    const r = importOperatorYaml(file.content);
    expect(r.problems).toEqual([]);
    const { name: _name, tls: _tls, token: _token, ...fields } = profile;
    expect(r.offers[0]!.draft).toEqual({ name: 'home-lab', ...fields });
    // The bundle's insecure profile writes insecureSkipTLSVerify: true; it comes back as a note, not as trust.
    expect(r.offers[0]!.notes.join(' ')).toContain('insecureSkipTLSVerify: true is not carried over');
  });

  it.each([
    ['an unknown key', { tokn: 'x' }, 'proxmox: Unrecognized key: "tokn"'],
    ['a VLAN tag given as text', { vlanTag: '4' }, 'proxmox.vlanTag:'],
    ['a VMID range below 100', { vmidRange: { min: 50, max: 200 } }, 'proxmox.vmidRange.min:'],
    [
      'a VMID range upside down',
      { vmidRange: { min: 200_000, max: 100_000 } },
      'proxmox.vmidRange: vmidRange.min must be below vmidRange.max',
    ],
    ['no nodes', { nodes: [] }, 'proxmox.nodes: needs at least one node'],
    [
      'a bridge net0 would split (the operator takes it, the app does not)',
      { bridge: 'vmbr0,tag=5' },
      'proxmox.bridge: must be a Linux bridge name',
    ],
    ['a request timeout over an hour (the app’s ceiling)', { requestTimeoutSeconds: 7200 }, 'proxmox.requestTimeoutSeconds:'],
    [
      'a reserved machine-type name',
      { machineTypes: { constructor: { cores: 1, memoryMiB: 512 } } },
      'proxmox.machineTypes.constructor: "constructor" is a reserved name',
    ],
  ])('refuses %s, naming the key, and drafts nothing', (_what, proxmox, words) => {
    const offer = profileOfferOf(entry(proxmox));
    expect(offer.draft).toBeUndefined();
    expect(offer.notes).toEqual([]);
    expect(offer.problems.join('\n')).toContain(words);
  });

  it('an entry’s problems are its own: the Proxies beside it are still taken', () => {
    const proxy = parse(
      'apiVersion: crawl.example.com/v1alpha1\nkind: Proxy\nmetadata: {name: p-1}\nspec: {mode: Managed, provider: lab, placement: {machineType: s, image: d}, port: 3128, cloudInit: {inline: "#cloud-config"}}\n',
    ) as unknown;
    const text = JSON.stringify([entry({ vlanTag: 5000 }), proxy]);
    const r = importOperatorYaml(text);
    expect(r.problems).toEqual([]);
    expect(r.proxies.map((p) => p.name)).toEqual(['p-1']);
    expect(r.offers[0]).toMatchObject({ provider: 'lab', url: 'https://pve.lab:8006' });
    expect(r.offers[0]!.draft).toBeUndefined();
    expect(r.offers[0]!.problems.join(' ')).toContain('proxmox.vlanTag');
  });
});

describe('one server, one cluster', () => {
  it('finds the saved cluster with the same URL, whatever the case of the host or a trailing slash', () => {
    const saved = [
      { id: 'a', url: 'https://pve.lab:8006' },
      { id: 'b', url: 'https://192.168.0.8:8006/' },
    ];
    expect(profileWithUrl('https://PVE.lab:8006/', saved)?.id).toBe('a');
    expect(profileWithUrl('https://192.168.0.8:8006', saved)?.id).toBe('b');
    expect(profileWithUrl('https://192.168.0.8:8007', saved)).toBeUndefined();
    expect(profileWithUrl('https://192.168.0.9:8006', saved)).toBeUndefined();
    expect(sameServerUrl('https://pve.lab', 'https://pve.lab:443')).toBe(true);
  });
});

describe('the draft kept to what the reached cluster has', () => {
  const draft = profileOfferOf(
    entry({ nodes: ['pv1-1', 'pv1-9'], bridge: 'vmbr7', templates: { d: { vmid: 9001 }, e: { vmid: 9555 } } }),
  ).draft!;

  it('keeps what is there under the entry’s own keys, and says each thing left out', () => {
    const fit = fitDraftToCluster(draft, { nodes: ['pv1-1', 'pv1-2'], isoStorages: ['local'], bridges: ['vmbr0'], templates: [9001] });
    expect(fit.nodes).toEqual(['pv1-1']);
    expect(fit.isoStorage).toBeUndefined();
    expect(fit.bridge).toBeUndefined();
    expect(fit.templates).toEqual({ d: { vmid: 9001 } });
    expect(fit.notes).toEqual([
      'nodes: pv1-9 from the entry is not in this cluster, so left out.',
      'isoStorage: seeds from the entry holds no ISO content here (or is not there): choose the seed storage.',
      'bridge: vmbr7 from the entry is on no node here: choose a bridge.',
      'templates.e: VMID 9555 is not a template the app can clone here, so left out.',
    ]);
  });

  it('says nothing when the cluster has all of it', () => {
    const fit = fitDraftToCluster(draft, {
      nodes: ['pv1-1', 'pv1-9'],
      isoStorages: ['seeds'],
      bridges: ['vmbr7'],
      templates: [9001, 9555],
    });
    expect(fit).toEqual({
      nodes: ['pv1-1', 'pv1-9'],
      isoStorage: 'seeds',
      bridge: 'vmbr7',
      templates: { d: { vmid: 9001 }, e: { vmid: 9555 } },
      notes: [],
    });
  });
});
