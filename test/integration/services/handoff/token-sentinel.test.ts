/**
 * Issue 26 and the secret rules: the demo cluster's API token secret (the
 * simulator's admin token, a random UUID, really sent with every request)
 * is the sentinel. Through the composed app's handoff channels it is in no
 * answer the window gets (preview, save), no event, no log line and no file
 * of the data folder, asked or not; in a saved bundle it is in the one file
 * `proxmox-token` (0600) and only when the request asked for it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandoffPreview } from '../../../../shared/channels/handoff';
import { demoCredentials, startDemoCluster } from '../../../../main/services/demo/demo-cluster';
import { createMemoryLogger } from '../../../../main/log/logger';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { writePrivateFolder } from '../../../../main/ports/folder-saver';
import { composeApp, type ComposedApp } from '../../../support/compose-app';

const ctx = () => ({ signal: new AbortController().signal, transport: 'test' });
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
const userData = '#cloud-config\npackages: [squid]\nwrite_files:\n  - path: /etc/squid/conf.d/e.conf\n    content: |\n      http_port 3128\n';

describe('the API token and the hand-off bundle', () => {
  const logger = createMemoryLogger('debug');
  const dataDir = mkdtempSync(join(tmpdir(), 'egress-handoff-sentinel-'));
  const saveBase = mkdtempSync(join(tmpdir(), 'egress-handoff-saved-'));
  const saved: string[] = [];
  const events: string[] = [];
  let app: ComposedApp;
  let SENTINEL = '';
  let TOKEN_ID = '';
  let input: { clusterId: string; vmids: number[]; providerName: string; includeCredentials: boolean };

  beforeAll(async () => {
    app = composeApp({
      mode: 'browser',
      version: '0.0.0-test',
      runtime: nodeRuntime(),
      logger,
      dataDir,
      demo: 'off',
      monitoring: { inventory: { visibleIntervalMs: 200 } },
      folderSaver: {
        saveFolder: async (name, files) => {
          const dir = join(saveBase, `${saved.length}-${name}`);
          await writePrivateFolder(dir, files);
          saved.push(dir);
          return dir;
        },
      },
    });
    app.bus.subscribe((name, payload) => events.push(JSON.stringify({ name, payload })));
    app.profiles.startDemo(async () => {
      const cluster = await startDemoCluster(logger, 0.02);
      const admin = cluster.sim.tokens.admin!;
      SENTINEL = admin.secret;
      TOKEN_ID = admin.tokenId;
      await demoCredentials(cluster, app.credentials);
      return cluster;
    });
    const demo = (await app.profiles.list()).profiles.find((p) => p.demo)!;
    const made = await app.tasks.createProxies({
      clusterId: demo.id,
      node: 'pv1-1',
      template: 'debian-13-template',
      machineType: 'small',
      name: 'tok',
      count: 1,
      cloudInit: userData,
    });
    let vmids: number[] = [];
    for (let i = 0; i < 600 && vmids.length === 0; i++) {
      const done = made.taskIds.every((id) => app.tasks.list().find((t) => t.id === id)?.state === 'succeeded');
      const failed = app.tasks.list().find((t) => made.taskIds.includes(t.id) && t.state === 'failed');
      if (failed) throw new Error(`the create failed: ${failed.error?.message ?? ''}`);
      const snap = await app.router.dispatch('inventory.snapshot', {}, ctx());
      const vms = snap.ok ? (snap.value as { clusters: { vms: { vmid: number; name?: string; uid?: string }[] }[] }).clusters.flatMap((c) => c.vms) : [];
      if (done) vmids = vms.filter((v) => v.name === 'tok' && v.uid).map((v) => v.vmid);
      if (vmids.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(vmids).toHaveLength(1);
    expect(SENTINEL).toMatch(/^[0-9a-f-]{36}$/);
    input = { clusterId: demo.id, vmids, providerName: 'demo-lab', includeCredentials: false };
  }, 120_000);
  afterAll(async () => {
    await app.dispose();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(saveBase, { recursive: true, force: true });
  });

  it('is in no preview: unasked no proxmox-token listed; asked, listed as a secret, its text nowhere', async () => {
    const plain = await app.router.dispatch('handoff.preview', input, ctx());
    expect(plain.ok, JSON.stringify(plain)).toBe(true);
    expect((plain as { value: HandoffPreview }).value.files.map((f) => f.path)).not.toContain('proxmox-token');
    const asked = await app.router.dispatch('handoff.preview', { ...input, includeToken: true }, ctx());
    expect(asked.ok, JSON.stringify(asked)).toBe(true);
    const files = (asked as { value: HandoffPreview }).value.files;
    expect(files.find((f) => f.path === 'proxmox-token')).toMatchObject({ secret: true });
    for (const answer of [plain, asked]) expect(JSON.stringify(answer)).not.toContain(SENTINEL);
  });

  it('is in the saved bundle only when asked, then in proxmox-token alone (0600), and in no answer, event, log line or data file', async () => {
    const unasked = await app.router.dispatch('handoff.save', input, ctx());
    const asked = await app.router.dispatch('handoff.save', { ...input, includeToken: true }, ctx());
    expect([unasked.ok, asked.ok], JSON.stringify([unasked, asked])).toEqual([true, true]);
    const [plainDir, tokenDir] = saved;
    expect(filesUnder(plainDir!).filter((f) => readFileSync(f, 'utf8').includes(SENTINEL))).toEqual([]);
    expect(filesUnder(plainDir!).map((f) => f.slice(plainDir!.length + 1))).not.toContain('proxmox-token');
    expect(filesUnder(tokenDir!).filter((f) => readFileSync(f, 'utf8').includes(SENTINEL))).toEqual([join(tokenDir!, 'proxmox-token')]);
    expect(readFileSync(join(tokenDir!, 'proxmox-token'), 'utf8')).toBe(`${TOKEN_ID}=${SENTINEL}\n`);
    // The bits, not an access check: they are stored the same when root writes them (these tests run as root here).
    expect(statSync(join(tokenDir!, 'proxmox-token')).mode & 0o777).toBe(0o600);
    expect(statSync(tokenDir!).mode & 0o777).toBe(0o700);
    for (const text of [JSON.stringify(unasked), JSON.stringify(asked), ...events, ...logger.lines]) expect(text).not.toContain(SENTINEL);
    app.history.flush();
    for (const file of filesUnder(dataDir)) expect(readFileSync(file).includes(SENTINEL), file).toBe(false);
  });
});
