/**
 * Issue 24: a proxy's password stays in main. The whole app (composed as
 * the shell composes it, on the simulator) creates a proxy from the
 * tinyproxy preset with credentials (whose filled user-data holds the
 * password itself, so any leak of it shows); the password main made is then searched for in
 * every answer and event the renderer got, every log line, and every file
 * of the data folder (the task journal, the history database, the
 * credentials file): it is in none. Only `proxies.credentials`, the explicit
 * reveal, answers it, and the seed on Proxmox carries it for tinyproxy's
 * BasicAuth, as docs/security.md says (Squid's seed carries a hash:
 * test/unit/services/proxy-credentials.test.ts). A rotate's new password
 * (issue 24), made and put into a new seed, is searched for the same way.
 * Deleting the proxy removes its credentials. A target list carrying the password in a URL
 * is refused without repeating it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { presets } from '../../../../renderer/src/views/create/presets';
import { simProfile, tempDir } from '../profiles/helpers';
import { startEnv, type Env } from '../tasks/harness';

const ctx = { signal: new AbortController().signal, transport: 'test' };
let env: Env | undefined;
let app: ComposedApp | undefined;
afterEach(async () => {
  await app?.dispose();
  app = undefined;
  await env?.close();
  env = undefined;
});

function filesIn(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'))
    .join('\n');
}

describe("a proxy's password", () => {
  it('reaches no answer but the explicit reveal, no event, log line, journal, history or file; only the seed, filled; a delete removes it', async () => {
    env = await startEnv();
    const { sim } = env.t;
    const dataDir = await tempDir();
    const logger = createMemoryLogger('debug');
    app = composeApp({
      mode: 'browser',
      version: '0',
      runtime: nodeRuntime(),
      logger,
      dataDir,
      demo: 'off',
      secretVault: createMemoryVault(),
      // A rotate's check would dial the simulated guest's address, off loopback: it answers as a proxy that took the
      // new credentials (the real check through real daemons: real-daemons-auth.test.ts).
      tasks: {
        rotateVerifyMs: 0,
        addressWaitMs: 5000,
        rotateCheck: async (input) => ({ reachable: true, address: '192.168.0.9', port: input.port, protocol: input.protocol, targetUrl: 'https://api.ipify.org' }),
      },
    });
    const events: string[] = [];
    app.bus.subscribe((name, payload) => events.push(JSON.stringify({ name, payload })));
    const outputs: string[] = [];
    const call = async <T>(channel: string, input: unknown = {}) => {
      const answer = (await app!.router.dispatch(channel, input, ctx)) as { ok: true; value: T } | { ok: false; error: { message: string } };
      if (channel !== 'proxies.credentials') outputs.push(JSON.stringify(answer));
      return answer;
    };
    const tokenId = sim.tokens.admin!.tokenId;
    const saved = await call<{ id: string }>('profiles.save', { profile: simProfile(sim, tokenId), secret: sim.tokens.admin!.secret });
    if (!saved.ok) throw new Error(saved.error.message);
    const clusterId = saved.value.id;
    const tinyproxy = presets.find((p) => p.id === 'tinyproxy')!;
    const made = await call<{ taskIds: string[] }>('tasks.createProxies', {
      clusterId,
      template: 't9001',
      machineType: 'small',
      node: 'pv1-1',
      count: 1,
      name: 'proxy-creds',
      cloudInit: tinyproxy.render(8888, { credentials: true }),
    });
    if (!made.ok) throw new Error(made.error.message);
    let vmid: number | undefined;
    for (let i = 0; i < 400 && vmid === undefined; i++) {
      const got = await call<{ state: string; vmid?: number; message?: string }>('tasks.get', { id: made.value.taskIds[0] });
      if (got.ok && got.value.state === 'failed') throw new Error(got.value.message);
      if (got.ok && got.value.state === 'succeeded') vmid = got.value.vmid;
      else await sleep(25);
    }
    expect(vmid).toBeDefined();

    const revealed = await call<{ username: string; password: string }>('proxies.credentials', { clusterId, vmid });
    if (!revealed.ok) throw new Error(revealed.error.message);
    const { username, password } = revealed.value;
    expect(username).toBe('egress');
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);

    // The seed on the node: tinyproxy's BasicAuth line, filled; no placeholder left.
    const vm = sim.state.vms.get(vmid!)!;
    const [, storage, file] = /^([^:,]+):iso\/([^,]+)/.exec(String(vm.config.ide2))!;
    const seed = Buffer.from(sim.state.iso(vm.node, storage!, file!)!.bytes).toString('latin1');
    expect(seed).toContain(`BasicAuth egress ${password}`);
    expect(seed).not.toContain('EGRESS_DESK_PROXY');

    // A rotate (issue 24): its new password made, sealed while pending, put in the seed, then made current.
    const rotate = await call<{ taskId: string }>('proxies.rotateCredentials', { clusterId, vmid, name: 'proxy-creds' });
    if (!rotate.ok) throw new Error(rotate.error.message);
    let rotated: { state: string; error?: { message: string } } | undefined;
    for (let i = 0; i < 800 && rotated === undefined; i++) {
      const got = await call<{ state: string; error?: { message: string } }>('tasks.get', { id: rotate.value.taskId });
      if (got.ok && (got.value.state === 'failed' || got.value.state === 'succeeded')) rotated = got.value;
      else await sleep(25);
    }
    expect(rotated?.state).toBe('succeeded');
    const newSeed = Buffer.from(sim.state.iso(vm.node, storage!, file!)!.bytes).toString('latin1');
    const rotatedPassword = /BasicAuth egress ([A-Za-z0-9_-]{32})/.exec(newSeed)?.[1];
    expect(rotatedPassword).toBeDefined();
    expect(rotatedPassword).not.toBe(password);
    expect(await call('proxies.credentials', { clusterId, vmid })).toMatchObject({ ok: true, value: { password: rotatedPassword } });

    // Issue 24, targets: a list that carries the password in a URL is refused, and the refusal does not repeat it.
    const refusedTargets = await call('checks.setTargets', {
      clusterId,
      vmid,
      targets: ['http://site.example/', `http://${username}:${password}@site.example/`],
    });
    expect(refusedTargets).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    await call('checks.setTargets', { clusterId, vmid, targets: ['http://site.example/'] });

    for (const [channel, input] of [
      ['tasks.list', {}],
      ['inventory.snapshot', {}],
      ['checks.latest', {}],
      ['checks.history', { clusterId, vmid }],
      ['alerts.list', {}],
      ['history.status', {}],
    ] as const)
      await call(channel, input);
    const deleted = await call<{ taskIds: string[] }>('tasks.deleteProxies', { clusterId, ids: [`vms/${vmid}/proxy-creds`] });
    if (!deleted.ok) throw new Error(deleted.error.message);
    for (let i = 0; i < 400; i++) {
      const got = await call<{ state: string }>('tasks.get', { id: deleted.value.taskIds[0] });
      if (got.ok && got.value.state === 'succeeded') break;
      await sleep(25);
    }
    app.history.flush();

    // Issue 27: the inventory's memory (marks, addresses) is among the files searched.
    expect(readdirSync(join(dataDir, 'inventory'))).toHaveLength(1);
    for (const secret of [password, rotatedPassword!]) {
      for (const text of [...outputs, ...events, ...logger.lines]) expect(text).not.toContain(secret);
      expect(filesIn(dataDir)).not.toContain(secret);
    }
    // Gone with the proxy.
    expect(await call('proxies.credentials', { clusterId, vmid })).toMatchObject({ ok: false, error: { kind: 'not-found' } });
    expect(readFileSync(join(dataDir, 'proxy-credentials.json'), 'utf8')).not.toContain('proxy-creds');
  });
});
