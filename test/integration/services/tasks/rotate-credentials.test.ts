/**
 * Issue 24: "Rotate credentials" on the simulator, on each Proxmox VE
 * version profile. A proxy made here with credentials (each preset) is
 * rotated: the task swaps in a new seed, reboots the VM, checks the proxy
 * with the new set through the app's own check (the demo's loopback
 * stand-ins, which read the credentials from the seed their guest booted
 * with), then makes the new set current. After it the old credentials are
 * refused (the auth class) and the new accepted; the journal holds neither
 * password. A check that fails keeps both sets and says which the seed has;
 * a Retry then finishes. Refused in words before any task: no credentials,
 * user-data the app does not keep, another task on the proxy, a stopped VM.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMark } from '../../../../main/core';
import { createLogger } from '../../../../main/log/logger';
import type { ProxyCredentials } from '../../../../main/ports/proxy-credentials';
import type { ProxyCredentialStore } from '../../../../main/services/proxy-credentials/store';
import { JOURNAL_FILE } from '../../../../main/services/tasks/records/journal';
import { VERIFY_STEP } from '../../../../main/services/tasks/runners/rotate-credentials';
import { PVE_VERSIONS, type PveVersion } from '../../../../main/simulator';
import type { ProxyCheckResult } from '../../../../shared/channels/proxy-check';
import { presets } from '../../../../renderer/src/views/create/presets';
import { simChecks, simCredentialStore } from '../../../support/rotate-world';
import { plantProxy } from '../../faults/cell';
import { madeHere, startEnv, type Env } from './harness';

const logger = createLogger({ sinks: [] });

interface World {
  env: Env;
  store: ProxyCredentialStore;
  /** The app's own check (Test's), through the demo's loopback stand-in for the guest's port. */
  check(vmid: number, credentials?: ProxyCredentials): Promise<ProxyCheckResult>;
  /** Set to make the rotate's check fail (a proxy that does not come back). */
  down: { on: boolean };
  close(): Promise<void>;
}

let world: World | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await world?.close();
  world = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function startWorld(version: PveVersion): Promise<World> {
  const dataDir = mkdtempSync(join(tmpdir(), 'egress-rotate-'));
  dirs.push(dataDir);
  const ref: { env?: Env } = {};
  const store = simCredentialStore(() => ref.env?.t.sim, dataDir, logger);
  const down = { on: false };
  const holder: { checks?: Awaited<ReturnType<typeof simChecks>> } = {};
  const env = (ref.env = await startEnv(
    { version },
    {
      credentials: store,
      rotateCheck: async (input, credentials, signal): Promise<ProxyCheckResult> => {
        if (down.on)
          return {
            reachable: false,
            address: '10.0.9.9',
            port: input.port,
            protocol: input.protocol,
            targetUrl: 'http://127.0.0.1/ip',
            problem: { kind: 'transient', stage: 'connect', message: 'The proxy refused the connection.', hint: 'Check it runs.' },
          };
        return holder.checks!.service.test(input, signal, { credentials });
      },
      rotateVerifyMs: 0,
      rotateRetryMs: 0,
    },
  ));
  const checks = (holder.checks = await simChecks(env.t.sim, { current: store }, logger));
  return {
    env,
    store,
    check: checks.check,
    down,
    async close() {
      await checks.close();
      await env.close();
    },
  };
}

const credsOf = async (w: World, vmid: number) => (await w.store.credentialsOf('sim', vmid))!;

async function rotate(w: World, vmid: number, name: string) {
  const { taskId } = await w.env.manager.rotateCredentials({ clusterId: 'sim', vmid, name });
  return w.env.manager.wait(taskId);
}

describe.each(PVE_VERSIONS)('Proxmox VE %s', (version) => {
  it.each(presets.map((p) => [p.id, p] as const))('%s: after a rotate the old credentials are refused, the new accepted', async (_id, preset) => {
    const w = (world = await startWorld(version));
    const name = `rot-${preset.id}`;
    const vmid = await madeHere(w.env, name, preset.render(preset.defaultPort, { credentials: true }));
    const old = await credsOf(w, vmid);
    expect((await w.check(vmid)).reachable).toBe(true);

    const done = await rotate(w, vmid, name);
    expect(done.state, done.message).toBe('succeeded');
    expect(done.message).toMatch(/new credentials in use/);
    expect(done.steps.map((s) => [s.name, s.state])).toEqual([
      ['lookup', 'done'],
      ['stage-seed', 'done'],
      ['replace-seed', 'done'],
      ['reboot', 'done'],
      ['wait-running', 'done'],
      ['waiting for an address', 'skipped'],
      [VERIFY_STEP, 'done'],
    ]);
    const now = await credsOf(w, vmid);
    expect(now.password).not.toBe(old.password);
    const refused = await w.check(vmid, old);
    expect(refused.reachable).toBe(false);
    expect(refused.problem?.message).toMatch(/refused the username and password/);
    expect((await w.check(vmid)).reachable).toBe(true);
    // The journal and the record hold neither password (the sentinel rule, with a rotated one).
    const journal = readFileSync(join(w.env.dir, JOURNAL_FILE), 'utf8');
    for (const p of [old.password, now.password]) {
      expect(journal).not.toContain(p);
      expect(readFileSync(join(w.env.dir, 'proxy-records.json'), 'utf8')).not.toContain(p);
    }
  });
});

describe('a rotate whose check fails', () => {
  it('keeps both sets, says the seed carries the new ones, and a Retry makes them current', async () => {
    const w = (world = await startWorld('9.2'));
    const name = 'rot-fails';
    const vmid = await madeHere(w.env, name, presets[1]!.render(8888, { credentials: true }));
    const old = await credsOf(w, vmid);
    w.down.on = true;
    const failed = await rotate(w, vmid, name);
    expect(failed.state).toBe('failed');
    expect(failed.error?.message).toMatch(/seed now carries the NEW credentials; the app keeps both sets/);
    expect(failed.error?.hint).toMatch(/Retry this task/);
    expect(await credsOf(w, vmid)).toEqual(old);
    const pending = (await w.store.pendingOf('sim', parseMark(String(w.env.t.sim.state.vms.get(vmid)!.config.description)).uid!))!;
    // The guest booted the new seed: the new set works through the proxy, the old is refused.
    expect((await w.check(vmid, pending)).reachable).toBe(true);
    expect((await w.check(vmid, old)).reachable).toBe(false);
    // A seed rebuilt with the kept (old) set meanwhile could undo the rotate: refused in words until it ends.
    await expect(
      w.env.manager.reconfigure({ clusterId: 'sim', targets: [{ vmid, name }], cloudInit: presets[1]!.render(8888, { credentials: true }) }),
    ).rejects.toThrow(/a rotate of its credentials has not ended .* Retry that rotate in Tasks first/);
    const uploads = () => w.env.t.sim.requests.records.filter((r) => r.method === 'POST' && /\/upload$/.test(r.rawPath)).length;
    const before = uploads();
    w.down.on = false;
    w.env.manager.retry(failed.id);
    const done = await w.env.manager.wait(failed.id);
    expect(done.state, done.message).toBe('succeeded');
    expect(uploads(), 'the seed is not written again: the record says it is').toBe(before);
    expect(await credsOf(w, vmid)).toEqual(pending);
  });
});

describe('a rerun after the commit', () => {
  it('finds the new set current and the seed written, sends nothing, and ends', async () => {
    const w = (world = await startWorld('9.2'));
    const name = 'rot-committed';
    const vmid = await madeHere(w.env, name, presets[2]!.render(1080, { credentials: true }));
    w.down.on = true;
    const failed = await rotate(w, vmid, name);
    expect(failed.state).toBe('failed');
    // As if the run had committed, then died before it said so.
    const uid = parseMark(String(w.env.t.sim.state.vms.get(vmid)!.config.description)).uid!;
    await w.store.rotateCommit('sim', uid);
    const sent = w.env.t.sim.requests.records.length;
    w.env.manager.retry(failed.id);
    const done = await w.env.manager.wait(failed.id);
    expect(done.state, done.message).toBe('succeeded');
    expect(done.message).toMatch(/uses its new credentials already/);
    expect(w.env.t.sim.requests.records.length).toBe(sent);
    expect((await w.check(vmid)).reachable).toBe(true);
  });
});

describe('refused before any task', () => {
  it('in words: no credentials, user-data not kept, another task on it, a stopped VM', async () => {
    const w = (world = await startWorld('9.2'));
    const plain = await madeHere(w.env, 'rot-plain', presets[0]!.render(3128));
    await expect(w.env.manager.rotateCredentials({ clusterId: 'sim', vmid: plain, name: 'rot-plain' })).rejects.toThrow(
      /made without a username and password .* Nothing was changed/,
    );
    plantProxy(w.env.t.sim, { vmid: 150_020, name: 'rot-operator', uid: crypto.randomUUID() });
    await expect(w.env.manager.rotateCredentials({ clusterId: 'sim', vmid: 150_020, name: 'rot-operator' })).rejects.toThrow(
      /keeps no user-data of rot-operator \(VM 150020\)'s seed/,
    );
    const vmid = await madeHere(w.env, 'rot-busy', presets[1]!.render(8888, { credentials: true }));
    const first = await w.env.manager.rotateCredentials({ clusterId: 'sim', vmid, name: 'rot-busy' });
    await expect(w.env.manager.rotateCredentials({ clusterId: 'sim', vmid, name: 'rot-busy' })).rejects.toThrow(/already working on rot-busy/);
    expect((await w.env.manager.wait(first.taskId)).state).toBe('succeeded');
    w.env.t.sim.state.setPower(vmid, 'stopped');
    await expect(w.env.manager.rotateCredentials({ clusterId: 'sim', vmid, name: 'rot-busy' })).rejects.toThrow(/it is not running: start it first/);
    const tasks = w.env.manager.list().filter((t) => t.kind === 'rotate-credentials');
    expect(tasks).toHaveLength(1);
  });
});
