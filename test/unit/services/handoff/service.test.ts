/**
 * Issue 26: the hand-off bundle as main builds and saves it
 * (main/services/handoff/service.ts over main/ports/folder-saver.ts): a new
 * folder 0700 with every file 0600, refusals in words with nothing written,
 * a proxy's password only when asked after the warning (a sentinel proves
 * it is nowhere else), and the preview never carrying a file's contents.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { InventorySnapshot, VmRow } from '../../../../shared/channels/inventory';
import { defaultSettings, type AppSettings, type ProfileSummary } from '../../../../shared/domain/profile';
import { fillCredentials, CREDENTIAL_PLACEHOLDERS } from '../../../../shared/domain/proxy-credentials';
import { OperatorProxy } from '../../../../shared/domain/operator-schemas';
import { createHandoffService, type KeptSeed } from '../../../../main/services/handoff/service';
import { writePrivateFolder, type FolderSaver } from '../../../../main/ports/folder-saver';
import { AppError } from '../../../../main/errors/app-error';

const SENTINEL = 'SENTINEL-handoff-password-91c2';
const TOKEN_SECRET = 'SENTINEL-handoff-token-3e7a-0000-0000-000000000000';
const TOKEN_LINE = `a@pve!b=${TOKEN_SECRET}`;
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const vm = (over: Partial<VmRow>): VmRow => ({ clusterId: 'c1', vmid: 101, node: 'pve1', name: 'web-1', state: 'running', status: 'running', owner: 'marked', uid: 'u-101', ours: true, tags: [], ...over });
const snapshot: InventorySnapshot = {
  revision: 1,
  clusters: [
    {
      clusterId: 'c1',
      name: 'lab',
      status: { state: 'ok', failures: 0, intervalMs: 5000 },
      nodes: [],
      vms: [vm({}), vm({ vmid: 102, name: 'socks-1', uid: 'u-102' }), vm({ vmid: 103, name: 'theirs', uid: 'u-103', ours: false })],
    },
  ],
};
const profile = {
  id: 'c1',
  name: 'Lab one',
  url: 'https://10.0.0.2:8006',
  tls: { mode: 'insecure' },
  token: { secretStorage: 'keyring', tokenId: 'a@pve!b' },
  nodes: ['pve1'],
  isoStorage: 'local',
  templates: { 'debian-13': { vmid: 9000 } },
  machineTypes: { small: { cores: 1, memoryMiB: 512 } },
  demo: false,
  secretAvailable: true,
  createdAt: '',
  updatedAt: '',
} satisfies ProfileSummary;
const squid = '#cloud-config\npackages: [squid]\n';
const withCreds = `#cloud-config\nruncmd:\n  - echo '${CREDENTIAL_PLACEHOLDERS.user}:${CREDENTIAL_PLACEHOLDERS.password}'\n`;
const kept: Record<string, KeptSeed> = {
  'u-101': { template: 'debian-13', machineType: 'small', userData: squid, endpoint: { protocol: 'http', port: 3128 } },
  'u-102': { template: 'debian-13', machineType: 'small', userData: withCreds, endpoint: { protocol: 'socks5', port: 1080 } },
};

function service(settings: Partial<AppSettings> = {}) {
  const saved: string[] = [];
  /** The clusters whose token was asked for: only the input's own, only when asked. */
  const tokenAsked: string[] = [];
  const saver: FolderSaver = {
    saveFolder: async (name, files) => {
      const base = mkdtempSync(join(tmpdir(), 'handoff-'));
      dirs.push(base);
      const dir = join(base, name);
      await writePrivateFolder(dir, files);
      saved.push(dir);
      return dir;
    },
  };
  const svc = createHandoffService({
    profile: () => profile,
    inventory: { snapshot: () => snapshot },
    keptSeed: async (_c, uid) => kept[uid],
    credentials: {
      has: (_c, vmid) => vmid === 102,
      fill: async (_c, _u, _n, text) => fillCredentials(text, { user: 'egress', password: SENTINEL, apr1: '$apr1$x', crypt: '$1$x' }),
    },
    settings: () => ({ ...defaultSettings, ...settings }),
    tokenLine: async (clusterId) => {
      tokenAsked.push(clusterId);
      return clusterId === 'c1' ? TOKEN_LINE : 'other@pve!x=not-this-one';
    },
    saver,
    readPinnedPem: async () => {
      throw new Error('not pinned');
    },
  });
  return { svc, saved, tokenAsked };
}
const input = (vmids: number[], includeCredentials = false, includeToken?: boolean) => ({
  clusterId: 'c1',
  vmids,
  providerName: 'lab-one',
  includeCredentials,
  ...(includeToken !== undefined ? { includeToken } : {}),
});
/** Every file under `dir`, relative, with its text. */
const saved = (dir: string): [string, string][] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => [join(e.parentPath, e.name).slice(dir.length + 1), readFileSync(join(e.parentPath, e.name), 'utf8')]);

describe('hand-off service', () => {
  it('saves a new folder, 0700, every file 0600, each Proxy valid for the operator', async () => {
    const { svc, saved } = service();
    const r = await svc.save(input([101]));
    expect(r.saved).toBe(true);
    const dir = saved[0]!;
    expect(dir.endsWith('lab-one-to-kubernetes')).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const all = ['README.md', 'create-token-secret.sh', 'kustomization.yaml', 'providers-config-entry.yaml', 'proxies/web-1.yaml'];
    expect([...readdirSync(dir), ...readdirSync(join(dir, 'proxies')).map((f) => `proxies/${f}`)].filter((f) => f !== 'proxies').sort()).toEqual(all);
    for (const f of all) expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
    const p = OperatorProxy.parse(parse(readFileSync(join(dir, 'proxies/web-1.yaml'), 'utf8')));
    expect(p.spec.cloudInit.inline).toBe(squid);
  });

  it('refuses a proxy whose user-data it does not know, and one with credentials unasked, writing nothing', async () => {
    const { svc, saved } = service();
    const preview = await svc.preview(input([101, 102, 103]));
    expect(preview.files).toEqual([]);
    expect(preview.refusals.join(' ')).toMatch(/does not know theirs's user-data/);
    expect(preview.refusals.join(' ')).toMatch(/socks-1's user-data sets a username and password/);
    await expect(svc.save(input([101, 103]))).rejects.toThrow(/The operator cannot take this selection/);
    expect(saved).toEqual([]);
  });

  it('fills credentials only when asked after the warning; the preview never carries them', async () => {
    await expect(service().svc.preview(input([102], true))).rejects.toThrow(/warning about them has not been confirmed/);
    const { svc, saved } = service({ exportCredentialsAcknowledged: true });
    const preview = await svc.preview(input([102], true));
    expect(JSON.stringify(preview)).not.toContain(SENTINEL);
    expect(preview.files.find((f) => f.path === 'proxies/socks-1.yaml')?.secret).toBe(true);
    await svc.save(input([102], true));
    const dir = saved[0]!;
    const holding = ['README.md', 'create-token-secret.sh', 'kustomization.yaml', 'providers-config-entry.yaml', 'proxies/socks-1.yaml'].filter((f) =>
      readFileSync(join(dir, f), 'utf8').includes(SENTINEL),
    );
    expect(holding).toEqual(['proxies/socks-1.yaml']);
  });

  it('the token goes into proxmox-token alone (0600, the exact line), only when asked, only the cluster’s own', async () => {
    const { svc, saved: dirsSaved, tokenAsked } = service();
    const preview = await svc.preview(input([101], false, true));
    expect(JSON.stringify(preview)).not.toContain(TOKEN_SECRET);
    expect(preview.files.find((f) => f.path === 'proxmox-token')).toEqual({ path: 'proxmox-token', secret: true, bytes: TOKEN_LINE.length + 1 });
    expect(preview.readme).toContain('--from-file=token=proxmox-token');
    expect(preview.readme).toContain('rm proxmox-token');
    await svc.save(input([101], false, true));
    const dir = dirsSaved[0]!;
    const files = saved(dir);
    expect(files.filter(([, text]) => text.includes(TOKEN_SECRET)).map(([path]) => path)).toEqual(['proxmox-token']);
    expect(readFileSync(join(dir, 'proxmox-token'), 'utf8')).toBe(`${TOKEN_LINE}\n`);
    expect(files.some(([, text]) => text.includes('not-this-one'))).toBe(false);
    expect(tokenAsked).toEqual(['c1', 'c1']);
    // Not skipped as root (these tests run as root here): the bits are stored the same whoever writes them, and they
    // are what keeps other users out once the folder is on the user's disk; only a read by another user (not tried)
    // would need a non-root run to mean anything.
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'proxmox-token')).mode & 0o777).toBe(0o600);
  });

  it('not asked (or a selection refused): no proxmox-token, the token read from nowhere and in no file or preview', async () => {
    for (const includeToken of [undefined, false]) {
      const { svc, saved: dirsSaved, tokenAsked } = service();
      const preview = await svc.preview(input([101], false, includeToken));
      expect(preview.files.map((f) => f.path)).not.toContain('proxmox-token');
      expect(JSON.stringify(preview)).not.toContain(TOKEN_SECRET);
      expect(preview.readme).toContain('--from-file=token=$HOME/.config/proxmox-token');
      await svc.save(input([101], false, includeToken));
      const files = saved(dirsSaved[0]!);
      expect(files.map(([path]) => path)).not.toContain('proxmox-token');
      expect(files.filter(([, text]) => text.includes(TOKEN_SECRET))).toEqual([]);
      expect(tokenAsked).toEqual([]);
    }
    const { svc, tokenAsked } = service();
    const refused = await svc.preview(input([101, 103], false, true));
    expect(refused.files).toEqual([]);
    expect(tokenAsked).toEqual([]);
  });

  it('a token the app cannot give is said in words, and nothing is written', async () => {
    const saver: FolderSaver = {
      saveFolder: async () => {
        throw new Error('must not be called');
      },
    };
    const failing = createHandoffService({
      profile: () => profile,
      inventory: { snapshot: () => snapshot },
      keptSeed: async (_c, uid) => kept[uid],
      credentials: { has: () => false, fill: async (_c, _u, _n, t) => t },
      settings: () => defaultSettings,
      tokenLine: async () => {
        throw new AppError('permanent', 'The token secret of cluster "Lab one" is not available.', "Enter it again in the cluster's settings.");
      },
      saver,
      readPinnedPem: async () => '',
    });
    await expect(failing.preview(input([101], false, true))).rejects.toThrow(/not available/);
    await expect(failing.save(input([101], false, true))).rejects.toThrow(/not available/);
  });

  it('never writes into an existing folder', async () => {
    const base = mkdtempSync(join(tmpdir(), 'handoff-'));
    dirs.push(base);
    await expect(writePrivateFolder(base, [{ path: 'a', content: 'x' }])).rejects.toThrow(/already exists/);
    await expect(writePrivateFolder(join(base, 'n'), [{ path: '../escape', content: 'x' }])).rejects.toThrow();
    expect(existsSync(join(base, 'escape'))).toBe(false);
  });
});
