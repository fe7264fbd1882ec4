/**
 * Issue 26: the connect wizard opened from a providers-config entry. Its last page starts from main's draft,
 * kept to what the doctor found (what is missing said), and the saved profile holds the entry's fields the
 * page has no input for (disk storage, VLAN tag, the other machine types, timeout, vendor data, guest agent),
 * with the trust the doctor verified, never the entry's insecureSkipTLSVerify.
 */
import { describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../shared/channels/doctor';
import { profileOfferOf } from '../../../shared/domain/operator-profile';
import { ProfileFields } from '../../../shared/domain/profile';
import { initialChoices, profileFrom, seededChoices } from '../../../renderer/src/views/settings/wizard/wizard-flow';

/** Only what the wizard's choices read of a report. */
const report = {
  url: 'https://pve.lab:8006',
  tls: { data: { choice: { mode: 'pin', fingerprint: 'AA:BB' } } },
  discovery: {
    data: {
      nodes: [
        { node: 'pv1-1', status: 'online' },
        { node: 'pv1-2', status: 'online' },
      ],
      isoStorages: [{ storage: 'proxy-seeds' }, { storage: 'local' }],
      bridges: [{ node: 'pv1-1', iface: 'vmbr0', vlanAware: true }],
      templates: [
        { vmid: 9001, name: 'debian-13-template', suitable: true },
        { vmid: 9002, name: 'old', suitable: false },
      ],
    },
  },
  suggestedProfile: {
    url: 'https://pve.lab:8006',
    clusterName: 'pve-lab',
    nodes: ['pv1-1', 'pv1-2'],
    isoStorage: 'local',
    templates: { 'debian-13-template': { vmid: 9001 } },
    vmidRange: { min: 100_000, max: 199_999 },
  },
} as unknown as DoctorReport;

const offer = profileOfferOf({
  name: 'proxmox-home',
  type: 'proxmox',
  proxmox: {
    url: 'https://pve.lab:8006',
    tokenFile: '/etc/proxy-operator/proxmox/token',
    insecureSkipTLSVerify: true,
    nodes: ['pv1-1', 'pv1-3'],
    isoStorage: 'proxy-seeds',
    storage: 'local-lvm',
    vlanTag: 4,
    vmidRange: { min: 120_000, max: 129_999 },
    templates: { 'debian-13': { vmid: 9001 }, 'debian-12': { vmid: 9002 } },
    machineTypes: { small: { cores: 1, memoryMiB: 1024, diskGiB: 10 }, big: { cores: 4, memoryMiB: 4096 } },
    requestTimeoutSeconds: 90,
    vendorData: '#cloud-config\n',
    installGuestAgent: false,
  },
});

describe('the connect wizard from a providers-config entry', () => {
  it('opens the last page on the entry’s choices, kept to the cluster, and saves every field the entry gave', () => {
    const { choices, notes } = seededChoices(initialChoices(report, 'session'), report, offer.draft!);
    expect(choices).toMatchObject({
      name: 'proxmox-home',
      nodes: ['pv1-1'],
      isoStorage: 'proxy-seeds',
      templates: { 'debian-13': { vmid: 9001 } },
      bridge: '',
      vmidMin: 120_000,
      vmidMax: 129_999,
      machineType: { name: 'small', cores: 1, memoryMiB: 1024 },
    });
    expect(notes).toEqual([
      'nodes: pv1-3 from the entry is not in this cluster, so left out.',
      'templates.debian-12: VMID 9002 is not a template the app can clone here, so left out.',
    ]);
    const profile = profileFrom(report, 'egress@pve!desk', choices);
    expect(ProfileFields.safeParse(profile).success).toBe(true);
    expect(profile).toMatchObject({
      url: 'https://pve.lab:8006',
      tls: { mode: 'pin', fingerprint: 'AA:BB' },
      token: { secretStorage: 'session', tokenId: 'egress@pve!desk' },
      storage: 'local-lvm',
      vlanTag: 4,
      requestTimeoutSeconds: 90,
      vendorData: '#cloud-config\n',
      installGuestAgent: false,
      machineTypes: { small: { cores: 1, memoryMiB: 1024, diskGiB: 10 }, big: { cores: 4, memoryMiB: 4096 } },
    });
    expect(profile.bridge).toBeUndefined();
  });

  it('a machine type renamed on the page replaces the entry’s first, and keeps the others', () => {
    const { choices } = seededChoices(initialChoices(report, 'session'), report, offer.draft!);
    const profile = profileFrom(report, 'a@pve!b', { ...choices, machineType: { name: 'tiny', cores: 1, memoryMiB: 512 } });
    expect(Object.keys(profile.machineTypes).sort()).toEqual(['big', 'tiny']);
  });

  it('without an entry, the saved profile is the page’s alone', () => {
    const profile = profileFrom(report, 'a@pve!b', initialChoices(report, 'session'));
    expect(profile).not.toHaveProperty('vlanTag');
    expect(profile.machineTypes).toEqual({ small: { cores: 1, memoryMiB: 1024 } });
  });
});
