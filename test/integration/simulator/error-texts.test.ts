/**
 * Every error text the simulator sends comes from a fixture: a sweep
 * provokes each error path it has, and each reason phrase, message, field
 * error and failed task's exitstatus must be a fixture's text, or that text
 * with only the captured VMID, node, storage, lock, path or value replaced.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fixture, fixtureNames } from '../../../fixtures';
import { startSimulator, type Simulator } from '../../../main/simulator';
import { TEXT_FIXTURES } from '../../../main/simulator/texts';
import { isoUpload, pve, waitTask, type RawAnswer } from './raw';

/** The captured values the simulator substitutes (see main/simulator/texts.ts); nothing else may vary. */
const SUBSTITUTED = [
  'pv1-1',
  '199999',
  'clone',
  "'local'",
  '/nodes/pv1-1',
  'Sys.Syslog',
  'integer',
  'abc',
  'vms',
  'vm, storage, node, sdn',
  'pv9-9',
  'GET /nodes/pv1-1/foo',
  'scsi5',
  'newid',
  'tags',
  'filename',
  'storage',
  'type',
  'foo',
  'size',
];

function fixtureTexts(): string[] {
  const out: string[] = [];
  for (const name of fixtureNames()) {
    const f = fixture(name);
    if (f.status !== 200) out.push(f.reason);
    const body = f.body
      ? (JSON.parse(f.body) as { message?: string; errors?: Record<string, string>; data?: { exitstatus?: string } })
      : {};
    if (body.message) out.push(body.message.replace(/\n$/, ''));
    out.push(...Object.values(body.errors ?? {}));
    if (body.data && typeof body.data === 'object' && body.data.exitstatus && body.data.exitstatus !== 'OK') out.push(body.data.exitstatus);
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const templates = fixtureTexts().map((text) => {
  let source = escape(text);
  for (const v of [...SUBSTITUTED].sort((a, b) => b.length - a.length)) source = source.split(escape(v)).join('.+?');
  return new RegExp(`^${source}$`);
});
const tiedToFixture = (text: string) => templates.some((t) => t.test(text));

let sim: Simulator;
const sent: string[] = [];
const collect = (a: RawAnswer) => {
  if (a.status < 400) return a;
  sent.push(a.reason);
  if (typeof a.json?.message === 'string') sent.push(a.json.message.replace(/\n$/, ''));
  sent.push(...Object.values((a.json?.errors ?? {}) as Record<string, string>));
  return a;
};
const call = async (...args: Parameters<typeof pve>) => collect(await pve(...args));
const exitOf = async (a: RawAnswer) => {
  const status = await waitTask(sim, a.data as string);
  if (status.exitstatus !== 'OK') sent.push(String(status.exitstatus));
  return status.exitstatus;
};

beforeAll(async () => {
  sim = await startSimulator({ timeScale: 0.001, taskDurations: { qmclone: 100_000 }, agentDelayMs: 1_000_000 });
});
afterAll(async () => sim.close());

it('names only fixtures that exist', () => {
  for (const name of Object.values(TEXT_FIXTURES)) expect(() => fixture(name), name).not.toThrow();
});

it('sends only texts taken from the fixtures, over a sweep of every error path', async () => {
  await call(sim, 'GET', '/version', { token: null });
  await call(sim, 'GET', '/version', { token: { tokenId: 'x@pve!y', secret: 'nope-nope' } });
  await call(sim, 'GET', '/nodes/pv1-1/nothing-here');
  await call(sim, 'GET', '/nodes/pv9-1/status');
  for (const p of ['config', 'status/current', 'agent/network-get-interfaces']) await call(sim, 'GET', `/nodes/pv1-1/qemu/4242/${p}`);
  await call(sim, 'DELETE', '/nodes/pv1-1/qemu/4242');
  await call(sim, 'GET', '/nodes/pv1-1/qemu/abc/config');
  await call(sim, 'GET', '/cluster/resources', { query: { type: 'vms', extra: 1 } });
  await call(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', { form: {} });
  await call(sim, 'PUT', '/nodes/pv1-1/qemu/100/resize', { form: { disk: 'scsi0', size: 'big' } });
  await call(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', { form: { newid: 100 } });
  await call(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', { form: { newid: 700, storage: 'local' } });
  await call(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', { form: { newid: 700, storage: 'nowhere' } });
  await call(sim, 'GET', '/nodes/pv1-1/storage/nowhere/status');
  await call(sim, 'DELETE', `/nodes/pv1-1/storage/local/content/${encodeURIComponent('local:iso/a.iso')}`, { token: 'operator' });
  await call(sim, 'POST', '/nodes/pv1-1/qemu/100/status/start', { token: 'auditor' });
  await call(sim, 'GET', '/nodes/pv1-1/qemu/100/agent/network-get-interfaces', { token: 'auditor' });
  await call(sim, 'POST', '/nodes/pv1-1/storage/proxy-seeds/upload', { body: await isoUpload('seed.txt', new Uint8Array(2)) });
  await call(sim, 'PUT', '/nodes/pv1-1/qemu/100/config', { form: { tags: 'not valid!' } });
  await call(sim, 'GET', '/nodes/pv1-1/tasks/UPID:pv1-1:1:2:3:x:y:z:/status');
  await call(sim, 'GET', '/nodes/pv1-1/qemu/100/agent/network-get-interfaces');
  await call(sim, 'PUT', '/nodes/pv1-1/qemu/100/config', { form: { agent: '1' } });
  await call(sim, 'GET', '/nodes/pv1-1/qemu/100/agent/network-get-interfaces');
  await exitOf(await call(sim, 'POST', '/nodes/pv1-1/qemu/100/status/start'));
  await call(sim, 'GET', '/nodes/pv1-1/qemu/100/agent/network-get-interfaces');
  await call(sim, 'DELETE', '/nodes/pv1-1/qemu/100');
  expect(await exitOf(await call(sim, 'POST', '/nodes/pv1-1/qemu/100/status/start'))).not.toBe('OK');
  expect(await exitOf(await call(sim, 'PUT', '/nodes/pv1-1/qemu/100/resize', { form: { disk: 'scsi5', size: '1G' } }))).not.toBe('OK');
  expect(await exitOf(await call(sim, 'PUT', '/nodes/pv1-1/qemu/100/resize', { form: { disk: 'scsi0', size: '1G' } }))).not.toBe('OK');
  const c = await call(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', { form: { newid: 701, name: 'proxy-x' } });
  await call(sim, 'PUT', '/nodes/pv1-1/qemu/701/config', { form: { cores: 1 } });
  await call(sim, 'DELETE', '/nodes/pv1-1/qemu/701');
  await exitOf(c);
  sim.faults.nodeDown('pv1-1');
  await call(sim, 'GET', '/nodes/pv1-1/status');
  sim.faults.nodeUp('pv1-1');
  sim.faults.inject({ route: '/version' }, { kind: 'unreachable', status: 596 }, 1);
  await call(sim, 'GET', '/version');

  expect(sent.length).toBeGreaterThan(40);
  expect(sent.filter((t) => !tiedToFixture(t))).toEqual([]);
});

it('would notice a text that is not from a fixture', () => {
  expect(tiedToFixture('VM 100 exploded unexpectedly')).toBe(false);
  expect(tiedToFixture(fixture('err_config_locked').reason.replace('clone', 'backup'))).toBe(true);
});
