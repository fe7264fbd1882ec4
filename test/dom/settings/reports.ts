/** Doctor reports and profile summaries for the renderer's tests, built from parts so each test states what differs. */
import type { DoctorReport, TemplateVerdict } from '../../../shared/channels/doctor';
import type { ProfilesList } from '../../../shared/channels/profiles';
import type { ProfileSummary } from '../../../shared/domain/profile';

export const FINGERPRINT = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';

const ok = { status: 'ok' as const, blocking: false, message: 'fine', hint: '' };
const skipped = { status: 'skipped' as const, blocking: false, message: 'not run', hint: '' };

export const goodTemplate: TemplateVerdict = {
  vmid: 9001,
  name: 'debian-12-proxy',
  node: 'pv1-1',
  suitable: true,
  problems: [],
  notes: [],
};
export const badTemplate: TemplateVerdict = {
  vmid: 9000,
  name: 'debian-12-ci',
  node: 'pv1-1',
  suitable: false,
  problems: [
    { code: 'cloud-init-drive', message: 'It has a cloud-init drive on ide2.', fix: 'Remove the cloud-init drive from the template.' },
  ],
  notes: [],
};

export function report(
  parts: { tls?: 'untrusted' | 'first-contact' | 'ok'; privileges?: 'missing' | 'ok'; clusterName?: string } = {},
): DoctorReport {
  // First contact with a certificate no CA vouches for: the doctor's blocking warning (tls-check.ts untrusted()).
  const firstContact = parts.tls === 'first-contact';
  const untrusted = parts.tls === 'untrusted' || firstContact;
  const missing = parts.privileges === 'missing';
  return {
    url: 'https://127.0.0.1:8006',
    ranAt: '2025-01-01T12:00:00Z',
    ready: !untrusted && !missing,
    tls: {
      ...(untrusted
        ? {
            status: firstContact ? 'warn' : 'fail',
            blocking: true,
            message: 'The certificate is not signed by a CA this computer trusts.',
            hint: 'Compare the fingerprint, then pin it.',
          }
        : ok),
      data: {
        certificate: {
          subjectCommonName: 'pve-sim.home.lab',
          subjectAltNames: ['127.0.0.1', 'pve-sim.home.lab'],
          issuerCommonName: 'Simulated CA',
          validFrom: '2025-01-01',
          validTo: '2027-01-01',
          fingerprint: FINGERPRINT,
          selfSigned: false,
        },
        offers: untrusted ? ['pin', 'ca', 'insecure'] : [],
        serverNameCandidates: ['pve-sim.home.lab'],
        choice: untrusted ? undefined : { mode: 'pin', fingerprint: FINGERPRINT },
      },
    },
    token: untrusted ? { ...skipped, data: {} } : { ...ok, data: { tokenId: 'proxy@pve!ops', version: '9.2' } },
    discovery: {
      ...(untrusted ? skipped : ok),
      data: {
        nodes: [
          { node: 'pv1-1', status: 'online' },
          { node: 'pv1-2', status: 'online' },
        ],
        isoStorages: [
          {
            node: 'pv1-1',
            storage: 'proxy-seeds',
            type: 'dir',
            content: ['iso'],
            shared: false,
            active: true,
            availBytes: 50 * 2 ** 30,
            dedicated: true,
          },
        ],
        seedStorage: { storage: 'proxy-seeds', reason: 'holds ISO images only', dedicated: true },
        templates: [goodTemplate, badTemplate],
        bridges: [{ node: 'pv1-1', iface: 'vmbr0', vlanAware: true }],
        vmidRange: { min: 150000, max: 159999, used: 0, free: 10000, usedBy: [] },
        problems: [],
      },
    },
    privileges: {
      ...(untrusted
        ? skipped
        : missing
          ? { status: 'fail', blocking: true, message: 'The token may not delete seed images.', hint: 'Run the commands below on a node.' }
          : ok),
      data: {
        checks: [
          {
            path: '/storage/proxy-seeds',
            role: 'ProxySeeds',
            required: ['Datastore.Allocate'],
            missing: missing ? ['Datastore.Allocate'] : [],
          },
        ],
        commands: missing
          ? [
              'pveum role add ProxySeeds --privs Datastore.Allocate',
              'pveum acl modify /storage/proxy-seeds --tokens proxy@pve!ops --roles ProxySeeds',
            ]
          : [],
      },
    },
    suggestedProfile: {
      url: 'https://127.0.0.1:8006',
      tls: untrusted ? undefined : { mode: 'pin', fingerprint: FINGERPRINT },
      tokenId: 'proxy@pve!ops',
      nodes: ['pv1-1', 'pv1-2'],
      isoStorage: 'proxy-seeds',
      isoStorageReason: 'holds ISO images only',
      templates: { 'debian-12-proxy': { vmid: 9001 } },
      bridge: 'vmbr0',
      vmidRange: { min: 150000, max: 159999 },
      ...(parts.clusterName ? { clusterName: parts.clusterName } : {}),
    },
  };
}

export function profile(over: Partial<ProfileSummary> = {}): ProfileSummary {
  return {
    id: 'home',
    name: 'homelab',
    demo: false,
    secretAvailable: true,
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    url: 'https://pve.home.lab:8006',
    tls: { mode: 'pin', fingerprint: FINGERPRINT },
    token: { secretStorage: 'session', tokenId: 'proxy@pve!ops' },
    nodes: ['pv1-1', 'pv1-2'],
    isoStorage: 'proxy-seeds',
    templates: { 'debian-12-proxy': { vmid: 9001 } },
    machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
    ...over,
  };
}

export function profilesList(profiles: ProfileSummary[]): ProfilesList {
  return { profiles, vault: { kind: 'key_file', protected: false, detail: 'A key file in the data folder.' } };
}
