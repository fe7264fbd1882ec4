/**
 * Issue 16: start, shut down, stop and reboot over the simulator and the real
 * client, every operation in every state (power.ts's table), the identity
 * check, idempotency counted at the simulator, the shutdown timeout and a
 * cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, type PowerOp, type PowerResult, type ProgressEvent } from '../../../main/core';
import { plainVm, proxyVm } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

const NAME = 'proxy-power';
const UID = '4c1d7e2a-9b3f-4a6e-8d5c-2f1e0a9b8c7d';
const CHANGING = /\/status\/(start|stop|shutdown|reboot|resume)$/;

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
});
afterAll(async () => env?.close());

let nextVmid = 150000;
const idOf = (vmid: number, name = NAME) => `vms/${vmid}/${name}`;
type Setup = 'running' | 'stopped' | 'paused' | 'hibernated' | 'locked' | 'foreign' | 'unmarked' | 'other-uid' | 'absent';

function place(state: Setup): number {
  const vmid = nextVmid++;
  if (state === 'absent') return vmid;
  if (state === 'foreign') env.sim.state.addVm('pv1-1', plainVm(vmid, 'someone-elses', 'running'));
  else if (state === 'unmarked') env.sim.state.addVm('pv1-1', plainVm(vmid, NAME, 'running'));
  else if (state === 'other-uid') env.sim.state.addVm('pv1-1', proxyVm(vmid, NAME, 'another-uid', 'running'));
  else if (state === 'locked') {
    env.sim.state.addVm('pv1-1', proxyVm(vmid, NAME, UID, 'running'));
    env.sim.faults.holdLock(vmid, 'backup');
  } else env.sim.state.addVm('pv1-1', proxyVm(vmid, NAME, UID, state));
  return vmid;
}

const call = (op: PowerOp, id: string, o: Parameters<SimProvider['provider']['start']>[1] = {}) => env.provider[op](id, o);

/** Runs the operation; answers the result or the error's kind and code, and the changing requests the simulator saw. */
async function run(op: PowerOp, state: Setup, o: Parameters<SimProvider['provider']['start']>[1] = {}) {
  const vmid = place(state);
  const since = env.sim.requests.records.length;
  let out: { ok: PowerResult } | { kind: string; code?: string | undefined; message: string; hint: string };
  try {
    out = { ok: await call(op, idOf(vmid), o) };
  } catch (e) {
    if (!isProviderError(e)) throw e;
    out = { kind: e.kind, code: e.code, message: e.message, hint: e.hint };
  }
  const changing = env.sim.requests.records
    .slice(since)
    .filter((r) => r.method === 'POST' && CHANGING.test(r.rawPath))
    .map((r) => r.rawPath.replace(/.*\/status\//, ''));
  return { vmid, out, changing, vm: env.sim.state.vm(vmid) };
}

type Want = { changed: boolean; message: string; sent: string[]; power: string } | { kind: string; code?: string; text: string };

const table: [PowerOp, Setup, Want][] = [
  ['start', 'running', { changed: false, message: 'already running', sent: [], power: 'running' }],
  ['start', 'stopped', { changed: true, message: 'started', sent: ['start'], power: 'running' }],
  ['start', 'paused', { changed: true, message: 'resumed', sent: ['resume'], power: 'running' }],
  ['start', 'hibernated', { changed: true, message: 'resumed from hibernation', sent: ['start'], power: 'running' }],
  ['stop', 'running', { changed: true, message: 'stopped', sent: ['stop'], power: 'stopped' }],
  ['stop', 'stopped', { changed: false, message: 'already stopped', sent: [], power: 'stopped' }],
  ['stop', 'paused', { changed: true, message: 'stopped', sent: ['stop'], power: 'stopped' }],
  ['stop', 'hibernated', { changed: false, message: 'already stopped (hibernated: a start resumes it)', sent: [], power: 'hibernated' }],
  ['shutdown', 'running', { changed: true, message: 'shut down', sent: ['shutdown'], power: 'stopped' }],
  ['shutdown', 'stopped', { changed: false, message: 'already stopped', sent: [], power: 'stopped' }],
  ['shutdown', 'paused', { kind: 'permanent', code: 'paused', text: 'is paused (qmpstatus paused)' }],
  [
    'shutdown',
    'hibernated',
    { changed: false, message: 'already stopped (hibernated: a start resumes it)', sent: [], power: 'hibernated' },
  ],
  ['reboot', 'running', { changed: true, message: 'rebooted', sent: ['reboot'], power: 'running' }],
  ['reboot', 'stopped', { kind: 'permanent', code: 'not-running', text: 'is stopped: there is nothing to reboot' }],
  ['reboot', 'paused', { kind: 'permanent', code: 'paused', text: 'is paused' }],
  ['reboot', 'hibernated', { kind: 'permanent', code: 'not-running', text: 'is hibernated' }],
];
for (const op of ['start', 'shutdown', 'stop', 'reboot'] as const) {
  table.push(
    [op, 'locked', { kind: 'transient', text: 'is locked (backup)' }],
    [op, 'foreign', { kind: 'permanent', code: 'not-the-one', text: 'is named someone-elses, not proxy-power; nothing was sent' }],
    [op, 'unmarked', { kind: 'permanent', code: 'not-the-one', text: 'carries no Egress Desk mark' }],
    [op, 'absent', { kind: 'not-found', text: 'is gone' }],
  );
}

describe('power operations × states', () => {
  it.each(table)('%s on %s', async (op, state, want) => {
    const { out, changing, vm } = await run(op, state);
    if ('kind' in want) {
      expect(out, JSON.stringify(out)).toMatchObject({ kind: want.kind, ...(want.code ? { code: want.code } : {}) });
      expect((out as { message: string }).message).toContain(want.text);
      // Refused or transient before anything changed: no changing request went out.
      expect(changing).toEqual([]);
      return;
    }
    expect('ok' in out, JSON.stringify(out)).toBe(true);
    const r = (out as { ok: PowerResult }).ok;
    expect({ changed: r.changed, message: r.message }).toEqual({ changed: want.changed, message: want.message });
    expect(changing).toEqual(want.sent);
    expect(vm?.power).toBe(want.power);
  });

  it('refuses a VM whose mark carries another uid when the caller names the uid it saw', async () => {
    const vmid = place('other-uid');
    const since = env.sim.requests.records.length;
    await expect(env.provider.stop(idOf(vmid), { expect: { uid: UID } })).rejects.toMatchObject({ kind: 'permanent', code: 'not-the-one' });
    expect(env.sim.requests.records.slice(since).some((r) => CHANGING.test(r.rawPath))).toBe(false);
    expect(env.sim.state.vm(vmid)?.power).toBe('running');
  });

  it('refuses a VM whose name does not match the ID (mismatched name)', async () => {
    const vmid = place('running');
    await expect(env.provider.shutdown(idOf(vmid, 'proxy-other'))).rejects.toMatchObject({ kind: 'permanent', code: 'not-the-one' });
    expect(env.sim.state.vm(vmid)?.power).toBe('running');
  });

  it('is idempotent: a second start and a second stop send nothing', async () => {
    const vmid = place('stopped');
    await env.provider.start(idOf(vmid));
    const since = env.sim.requests.records.length;
    expect((await env.provider.start(idOf(vmid))).message).toBe('already running');
    await env.provider.stop(idOf(vmid));
    const mid = env.sim.requests.records.length;
    expect((await env.provider.stop(idOf(vmid))).message).toBe('already stopped');
    expect((await env.provider.shutdown(idOf(vmid))).message).toBe('already stopped');
    const sent = (from: number, to?: number) => env.sim.requests.records.slice(from, to).filter((r) => CHANGING.test(r.rawPath)).length;
    expect(sent(since, since + 4)).toBe(0); // the second start: lookup reads only
    expect(sent(mid)).toBe(0);
  });
});

describe('shutdown of a guest that ignores ACPI', () => {
  it('fails at the timeout with a distinct outcome, the VM still running', async () => {
    const vmid = nextVmid++;
    env.sim.state.addVm('pv1-1', { ...proxyVm(vmid, NAME, UID, 'running'), ignoresAcpi: true });
    const err = await env.provider.shutdown(idOf(vmid), { timeoutSeconds: 5 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'transient', code: 'shutdown-timeout', op: 'shutdown' });
    expect((err as Error).message).toContain('VM quit/powerdown failed - got timeout');
    expect((err as { hint: string }).hint).toContain('Wait longer');
    expect(env.sim.state.vm(vmid)?.power).toBe('running');
    const sent = env.sim.requests.records.filter((r) => r.rawPath === `/nodes/pv1-1/qemu/${vmid}/status/shutdown`);
    expect(sent.map((r) => r.form)).toEqual([{ timeout: '5', forceStop: '0' }]);
    // The way out the hint names: a hard stop.
    expect((await env.provider.stop(idOf(vmid))).message).toBe('stopped');
  });

  it('makes a reboot time out the same way', async () => {
    const vmid = nextVmid++;
    env.sim.state.addVm('pv1-1', { ...proxyVm(vmid, NAME, UID, 'running'), ignoresAcpi: true });
    await expect(env.provider.reboot(idOf(vmid), { timeoutSeconds: 5 })).rejects.toMatchObject({
      kind: 'transient',
      code: 'shutdown-timeout',
    });
    expect(env.sim.state.vm(vmid)?.power).toBe('running');
  });
});

describe('progress and cancel', () => {
  it('reports each step before its request, with the task', async () => {
    const vmid = place('stopped');
    const events: ProgressEvent[] = [];
    await env.provider.start(idOf(vmid), { onProgress: (e) => events.push(e) });
    expect(events.map((e) => `${e.step}:${e.phase}`)).toEqual([
      'lookup:started',
      'lookup:done',
      'start:started',
      'start:task',
      'start:done',
      'wait-running:started',
      'wait-running:done',
    ]);
    expect(events.every((e) => e.op === 'start' && e.total === 3)).toBe(true);
    expect(events.find((e) => e.phase === 'task')?.upid).toContain(':qmstart:');
  });

  it('a listener that throws stops the operation before the changing request', async () => {
    const vmid = place('running');
    const boom = (e: ProgressEvent) => {
      if (e.step === 'stop' && e.phase === 'started') throw new Error('journal full');
    };
    await expect(env.provider.stop(idOf(vmid), { onProgress: boom })).rejects.toMatchObject({ kind: 'transient' });
    expect(env.sim.state.vm(vmid)?.power).toBe('running');
  });

  it('is cancelled promptly while its task runs', async () => {
    const vmid = place('running');
    env.sim.faults.hangTask({ type: 'qmshutdown', id: vmid }, 1);
    const ac = new AbortController();
    const p = env.provider.shutdown(idOf(vmid), {
      signal: ac.signal,
      onProgress: (e) => {
        if (e.phase === 'task') setTimeout(() => ac.abort(), 5);
      },
    });
    const started = Date.now();
    await expect(p).rejects.toMatchObject({ kind: 'transient' });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
