/**
 * A whole session with a sentinel token secret, through the composed app
 * and its router as the renderer drives it: connect (doctor, then save),
 * create a proxy, a create that fails, delete, export the profiles, then a
 * host process killed mid-create and the task resumed by the next one, and
 * a hand-off bundle asked to carry the token (previewed, its save refused).
 * The simulator's admin token secret IS the sentinel, so it really travels
 * in every request. Afterwards the sentinel (as is, base64, base64url, URL-
 * and hex-encoded) is in no log line, event, IPC answer, error, journal,
 * exported file or any file under the data folder; the profile store holds
 * it sealed only.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../support/compose-app';
import { nodeRuntime } from '../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../main/log/logger';
import { forgetSecret } from '../../../main/log/secrets';
import { JOURNAL_FILE } from '../../../main/services/tasks/records/journal';
import { defaultTokens } from '../../../main/simulator/auth';
import { SEED_STORAGE, startSimulator, type Simulator } from '../../../main/simulator';
import { startWebHost } from '../../../main/host/web-host';
import { chromiumMissingReason, launchChromium } from '../../support/browser';
import { rendererDir, rendererMissingReason } from '../../support/web-host';
import { simProfile } from '../services/profiles/helpers';

// Characters that base64 and URL encoding change, so each encoded form differs from the raw one.
const SENTINEL = 'SeNtInEl+5e55/10n:c0de-9b1f';
const forms = {
  raw: SENTINEL,
  base64: Buffer.from(SENTINEL).toString('base64'),
  base64url: Buffer.from(SENTINEL).toString('base64url'),
  url: encodeURIComponent(SENTINEL),
  hex: Buffer.from(SENTINEL).toString('hex'),
};
const cloudInit = '#cloud-config\nhostname: sentinel-session\n';
const ctx = { signal: new AbortController().signal, transport: 'test' };
const child = join(import.meta.dirname, 'session-crash-child.ts');

/** Every place a leak could show, by where it was seen. */
const seen: { where: string; text: string }[] = [];
const logger = createMemoryLogger('debug');

function expectNoSentinel(where: string, text: string): void {
  for (const [form, value] of Object.entries(forms)) expect(text.includes(value), `${form} sentinel in ${where}`).toBe(false);
}

function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ path: join(e.parentPath, e.name), text: readFileSync(join(e.parentPath, e.name)).toString('latin1') }));
}

/** The journal shows the crash create running its start step: the moment to kill the process. */
function startRunning(journal: string): boolean {
  if (!existsSync(journal)) return false;
  const tasks = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(journal, 'utf8').split('\n').filter(Boolean)) {
    const l = JSON.parse(line) as { id: string };
    tasks.set(l.id, { ...tasks.get(l.id), ...l });
  }
  return [...tasks.values()].some(
    (t) =>
      t.target === 'proxy-sentinel-crash' &&
      (t.steps as { name: string; state: string }[] | undefined)?.some((s) => s.name === 'start' && s.state === 'running'),
  );
}

describe('a sentinel token secret through a whole session', () => {
  let sim: Simulator;
  let dataDir: string;
  const apps: ComposedApp[] = [];
  /** The app after the crash: the one the browser check opens. */
  let resumed: ComposedApp | undefined;

  function open(): ComposedApp & { call(channel: string, input: unknown): Promise<unknown> } {
    // The scheduled checks' clock never moves: a check would reach the simulated guest's own address (192.168.x),
    // off loopback, whenever a proxy's phase of the interval fell inside this test.
    const app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger, dataDir, demo: 'off' });
    app.bus.subscribe((name, payload) => seen.push({ where: `event ${name}`, text: JSON.stringify(payload) }));
    apps.push(app);
    const call = async (channel: string, input: unknown) => {
      const answer = await app.router.dispatch(channel, input, ctx);
      seen.push({ where: `answer of ${channel}`, text: JSON.stringify(answer) });
      return answer;
    };
    return Object.assign(app, { call });
  }

  async function settled(call: (c: string, i: unknown) => Promise<unknown>, id: string) {
    for (let i = 0; i < 600; i++) {
      const answer = (await call('tasks.get', { id })) as { ok: boolean; value?: { state: string } };
      if (answer.value && !['queued', 'running'].includes(answer.value.state)) return answer.value;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`task ${id} did not settle`);
  }

  beforeAll(async () => {
    sim = await startSimulator({
      timeScale: 0.001,
      agentDelayMs: 0,
      tokens: { admin: { ...defaultTokens(SEED_STORAGE).admin!, secret: SENTINEL } },
    });
    // The simulator registers its secrets for redaction in this process: forget it, so only the app's own registration counts.
    forgetSecret(SENTINEL);
    dataDir = mkdtempSync(join(tmpdir(), 'egress-sentinel-session-'));
  });

  afterAll(async () => {
    for (const app of apps) await app.dispose();
    await sim?.close();
  });

  it('runs connect, create, a failing create, delete, export, crash and resume, leaking the secret nowhere', async () => {
    const tokenId = sim.tokens.admin!.tokenId;
    // Connect as the wizard does: the doctor on the URL and secret, then save, then the doctor on the saved profile.
    const first = open();
    await first.call('doctor.run', { url: sim.url, tokenId, secret: SENTINEL, runId: 'wizard' });
    const profile = simProfile(sim, tokenId, { token: { secretStorage: 'plaintext', tokenId } });
    const saved = (await first.call('profiles.save', { profile, secret: SENTINEL })) as { ok: boolean; value: { id: string } };
    expect(saved.ok).toBe(true);
    const clusterId = saved.value.id;
    const doctor = (await first.call('doctor.run', { profileId: clusterId })) as { ok: boolean; value: { token: { status: string } } };
    expect(doctor.value.token.status).toBe('ok');
    const { value: doctorTask } = (await first.call('tasks.runDoctor', { clusterId })) as { value: { taskId: string } };
    await settled(first.call, doctorTask.taskId);

    // A create that works, one Proxmox fails, and a delete.
    const create = (name: string) => ({ clusterId, template: 't9001', machineType: 'small', name, count: 1, cloudInit });
    const made = (await first.call('tasks.createProxies', create('proxy-sentinel-ok'))) as { value: { taskIds: string[] } };
    expect((await settled(first.call, made.value.taskIds[0]!)).state).toBe('succeeded');
    sim.faults.failTask({ type: 'qmstart' }, 'task_status_stopped_error', 1);
    const failing = (await first.call('tasks.createProxies', create('proxy-sentinel-fails'))) as { value: { taskIds: string[] } };
    const failed = await settled(first.call, failing.value.taskIds[0]!);
    expect(failed).toMatchObject({ state: 'failed', error: { kind: expect.any(String), message: expect.any(String) } });
    // Refused requests: an error answer, and a secret in a refused input is not echoed back.
    const refused = (await first.call('tasks.createProxies', { ...create('proxy-sentinel-no'), template: 'missing' })) as { ok: boolean };
    expect(refused.ok).toBe(false);
    const invalid = (await first.call('profiles.save', { profile: { ...profile, url: SENTINEL }, secret: SENTINEL })) as { ok: boolean };
    expect(invalid.ok).toBe(false);
    const vm = [...sim.state.vms.values()].find((v) => v.config.name === 'proxy-sentinel-ok')!;
    const deleted = (await first.call('tasks.deleteProxies', { clusterId, ids: [`vms/${vm.vmid}/proxy-sentinel-ok`] })) as {
      value: { taskIds: string[] };
    };
    expect((await settled(first.call, deleted.value.taskIds[0]!)).state).toBe('succeeded');
    expect(sim.state.vm(vm.vmid)).toBeUndefined();

    // Export, written where the user would save it.
    const exported = (await first.call('profiles.export', {})) as { value: { fileName: string; json: string } };
    const exportDir = mkdtempSync(join(tmpdir(), 'egress-sentinel-export-'));
    writeFileSync(join(exportDir, exported.value.fileName), exported.value.json);
    await first.dispose();

    // A host process killed while its create's start request hangs; the next one resumes the task.
    sim.faults.inject({ method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/start' }, { kind: 'hang' }, 1);
    const crashed = spawn(process.execPath, ['--import', 'tsx', child], {
      env: { ...process.env, SESSION_DATA_DIR: dataDir, SESSION_CREATE: JSON.stringify(create('proxy-sentinel-crash')) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let childOutput = '';
    crashed.stdout.on('data', (d: Buffer) => (childOutput += d.toString()));
    crashed.stderr.on('data', (d: Buffer) => (childOutput += d.toString()));
    const deadline = Date.now() + 30_000;
    while (!startRunning(join(dataDir, 'tasks', JOURNAL_FILE))) {
      if (Date.now() > deadline || crashed.exitCode !== null) throw new Error(`the child never reached its start step:\n${childOutput}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    crashed.kill('SIGKILL');
    await new Promise((r) => crashed.once('exit', r));
    seen.push({ where: 'the killed process output', text: childOutput });

    const second = open();
    resumed = second;
    const list = (await second.call('tasks.list', {})) as { value: { tasks: { id: string; target: string; state: string }[] } };
    const interrupted = list.value.tasks.find((t) => t.target === 'proxy-sentinel-crash' && t.state === 'interrupted');
    expect(interrupted, JSON.stringify(list.value.tasks.map((t) => [t.target, t.state]))).toBeDefined();
    sim.faults.clear();
    await second.call('tasks.resume', { id: interrupted!.id });
    expect((await settled(second.call, interrupted!.id)).state).toBe('succeeded');
    expect([...sim.state.vms.values()].filter((v) => v.config.name === 'proxy-sentinel-crash')).toHaveLength(1);

    // Issue 26: a hand-off bundle asked to carry the token reads it (the preview lists proxmox-token), yet the
    // answers carry only its name; the save, which browser mode cannot do, says so without the secret.
    const squid = '#cloud-config\npackages: [squid]\nwrite_files:\n  - path: /etc/squid/conf.d/e.conf\n    content: |\n      http_port 3128\n';
    const hand = (await second.call('tasks.createProxies', { ...create('proxy-sentinel-hand'), cloudInit: squid })) as { value: { taskIds: string[] } };
    expect((await settled(second.call, hand.value.taskIds[0]!)).state).toBe('succeeded');
    const handVm = [...sim.state.vms.values()].find((v) => v.config.name === 'proxy-sentinel-hand')!;
    const handoff = { clusterId, vmids: [handVm.vmid], providerName: 'sentinel', includeCredentials: false, includeToken: true };
    let preview: { ok: boolean; value?: { refusals: string[]; files: { path: string; secret: boolean }[] } } = { ok: false };
    for (let i = 0; i < 200; i++) {
      preview = (await second.call('handoff.preview', handoff)) as typeof preview;
      if (preview.ok && preview.value!.files.length > 0) break;
      await new Promise((r) => setTimeout(r, 25)); // until the inventory lists the new proxy with its mark
    }
    expect(preview.value?.files.find((f) => f.path === 'proxmox-token'), JSON.stringify(preview)).toMatchObject({ secret: true });
    expect(((await second.call('handoff.save', handoff)) as { ok: boolean }).ok).toBe(false);

    // Where it must not be.
    expect(logger.lines.length).toBeGreaterThan(0);
    for (const line of logger.lines) expectNoSentinel('a log line', line);
    for (const { where, text } of seen) expectNoSentinel(where, text);
    expect(seen.some((s) => s.where === 'event tasks.update')).toBe(true);
    expect(seen.some((s) => s.text.includes('"ok":false'))).toBe(true);
    const journal = join(dataDir, 'tasks', JOURNAL_FILE);
    expect(existsSync(journal)).toBe(true);
    const files = [...filesUnder(dataDir), ...filesUnder(exportDir)];
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining([journal, join(exportDir, exported.value.fileName)]));
    for (const { path, text } of files) expectNoSentinel(path, text);

    // Where it must be: sealed in the profile store, and only there.
    const store = JSON.parse(readFileSync(join(dataDir, 'profiles.json'), 'utf8')) as { secrets: Record<string, unknown> };
    const sealed = Object.values(store.secrets);
    expect(sealed).toHaveLength(1);
    expect(JSON.stringify(sealed[0]).length).toBeGreaterThan(SENTINEL.length);
  }, 120_000);

  const browserMissing = chromiumMissingReason() ?? rendererMissingReason();
  if (browserMissing) console.log(`[sentinel session] page-text check skipped: ${browserMissing}`);

  it.skipIf(browserMissing !== undefined)(
    'shows it on no page: Settings and Tasks text, and no WebSocket frame to the page',
    async () => {
      expect(resumed, 'the session test ran first').toBeDefined();
      const host = await startWebHost({ router: resumed!.router, bus: resumed!.bus, staticDir: rendererDir, logger });
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
        const frames: string[] = [];
        page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
        await page.goto(host.url);
        const nav = page.getByRole('navigation', { name: 'Views' });
        const texts: string[] = [];
        for (const view of ['Settings', 'Tasks']) {
          await nav.getByRole('button', { name: view, exact: true }).click();
          await page.getByRole('heading', { level: 1, name: view }).waitFor();
          // Each view shows the session's data (the profile, the resumed task) before its text is read.
          const shows = view === 'Tasks' ? 'proxy-sentinel-crash' : 'Home lab';
          await expect.poll(() => page.evaluate(() => document.body.innerText)).toContain(shows);
          texts.push(await page.evaluate(() => document.body.innerText));
        }
        expect(frames.length).toBeGreaterThan(0);
        for (const text of texts) expectNoSentinel('page text', text);
        for (const frame of frames) expectNoSentinel('a WebSocket frame to the page', frame);
      } finally {
        await browser.close();
        await host.close();
      }
    },
    60_000,
  );
});
