/**
 * The simulator behaves like pv1-1 in the execution log's facts, seen over
 * raw HTTPS with no client code in between.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture, fixtureMessage } from '../../../fixtures';
import { startSimulator, type Simulator } from '../../../main/simulator';
import { isoUpload, pve, waitTask } from './raw';

let sim: Simulator;
const SLOW_CLONE = { qmclone: 100_000 }; // 100 ms at timeScale 0.001: long enough to look at the clone mid-flight

beforeEach(async () => {
  sim = await startSimulator({ timeScale: 0.001, agentDelayMs: 20_000, taskDurations: SLOW_CLONE });
});
afterEach(async () => sim.close());

const clone = (newid: number, extra: Record<string, string | number> = {}) =>
  pve(sim, 'POST', '/nodes/pv1-1/qemu/9001/clone', {
    form: { newid, name: 'proxy-reconaaaaaaaaaaa', full: 1, ...extra },
    token: 'operator',
  });
const resources = async () => (await pve(sim, 'GET', '/cluster/resources', { query: { type: 'vm' } })).data as Record<string, unknown>[];

describe('wire format (F1, F18, F22)', () => {
  it('answers errors with the text as reason phrase and as message with a newline', async () => {
    const a = await pve(sim, 'GET', '/nodes/pv1-1/qemu/199999/config');
    expect(a.status).toBe(500);
    expect(a.reason).toBe(fixtureMessage('err_config_missing'));
    expect(a.body).toBe(fixture('err_config_missing').body);
    expect(a.headers['content-type']).toBe('application/json;charset=UTF-8');
  });

  it('answers 401 with an empty body: No ticket without a header, Authentication failed! for a wrong secret or unknown id', async () => {
    const none = await pve(sim, 'GET', '/version', { token: null });
    const wrong = await pve(sim, 'GET', '/version', { token: { tokenId: sim.tokens.admin!.tokenId, secret: 'wrong-secret' } });
    const unknown = await pve(sim, 'GET', '/version', { token: { tokenId: 'nobody@pve!x', secret: sim.tokens.admin!.secret } });
    expect([none.status, none.reason, none.body]).toEqual([401, fixture('err_no_ticket').reason, '']);
    for (const a of [wrong, unknown]) expect([a.status, a.reason, a.body]).toEqual([401, fixture('err_auth_failed').reason, '']);
  });

  it('refuses an unknown parameter with a 400 naming it', async () => {
    const a = await pve(sim, 'GET', '/cluster/resources', { query: { type: 'vm', bogus: 1 } });
    expect(a.status).toBe(400);
    expect(Object.keys(a.json!.errors as object)).toEqual(['bogus']);
  });
});

describe('clone (F4, F8, F10, F11, F15, F16)', () => {
  it('leaves a nameless clone-locked entry with status unknown until the task ends, then the named VM', async () => {
    const a = await clone(199999, { description: 'proxy-operator-managed=true\nproxy-operator-uid=u1' });
    expect(a.data).toMatch(/^UPID:pv1-1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:qmclone:9001:proxy-operator@pve!operator:$/);
    expect((await resources()).find((r) => r.vmid === 199999)).toEqual({
      type: 'qemu',
      vmid: 199999,
      id: 'qemu/199999',
      node: 'pv1-1',
      lock: 'clone',
      status: 'unknown',
    });
    const running = await pve(sim, 'GET', `/nodes/pv1-1/tasks/${encodeURIComponent(a.data as string)}/status`);
    expect(running.data).toMatchObject({
      status: 'running',
      type: 'qmclone',
      id: '9001',
      node: 'pv1-1',
      user: 'proxy-operator@pve',
      tokenid: 'operator',
    });
    expect(running.data).not.toHaveProperty('exitstatus');
    expect(await waitTask(sim, a.data as string)).toMatchObject({ status: 'stopped', exitstatus: 'OK' });
    const entry = (await resources()).find((r) => r.vmid === 199999)!;
    expect(entry).toMatchObject({ name: 'proxy-reconaaaaaaaaaaa', status: 'stopped', template: 0 });
    expect(entry).not.toHaveProperty('lock');
    const config = (await pve(sim, 'GET', '/nodes/pv1-1/qemu/199999/config')).data as Record<string, unknown>;
    expect(config.description).toBe('proxy-operator-managed=true\nproxy-operator-uid=u1');
    expect(config.meta).toBe(sim.state.vm(9001)!.config.meta);
  });

  it('fails synchronously onto a taken VMID and up front onto a storage without images', async () => {
    const taken = await clone(100);
    expect([taken.status, taken.reason]).toEqual([500, fixtureMessage('err_clone_vmid_taken').replace('199999', '100')]);
    const noImages = await clone(199998, { storage: 'local' });
    expect(noImages.status).toBe(400);
    expect((noImages.json!.errors as Record<string, string>).storage).toBe(
      JSON.parse(fixture('err_clone_storage_no_images').body).errors.storage,
    );
    expect(sim.state.vm(199998)).toBeUndefined();
  });
});

describe('locks (F3, F7)', () => {
  it('refuses a config write under the clone lock, and queues a start behind it', async () => {
    const c = await clone(199999);
    const write = await pve(sim, 'PUT', '/nodes/pv1-1/qemu/199999/config', { form: { cores: 2 }, token: 'operator' });
    expect([write.status, write.reason]).toEqual([500, fixtureMessage('err_config_locked')]);
    const start = await pve(sim, 'POST', '/nodes/pv1-1/qemu/199999/status/start', { token: 'operator' });
    expect(start.status).toBe(200);
    expect(await waitTask(sim, start.data as string)).toMatchObject({ exitstatus: 'OK' });
    expect((await waitTask(sim, c.data as string)).exitstatus).toBe('OK');
    const log = (await pve(sim, 'GET', `/nodes/pv1-1/tasks/${encodeURIComponent(start.data as string)}/log`)).json!;
    expect((log.data as { t: string }[]).map((l) => l.t).slice(0, 2)).toEqual(['trying to acquire lock...', ' OK']);
    expect(sim.state.vm(199999)!.power).toBe('running');
  });

  it('keeps a lock that never clears refusing writes', async () => {
    sim.faults.holdLock(100, 'backup');
    const write = await pve(sim, 'PUT', '/nodes/pv1-1/qemu/100/config', { form: { cores: 2 } });
    expect(write.reason).toBe(fixtureMessage('err_config_locked').replace('(clone)', '(backup)'));
  });
});

describe('config writes (F9, F19)', () => {
  it('folds tags to lowercase, refuses invalid characters, and appends ide2 to the boot order', async () => {
    const ok = await pve(sim, 'PUT', '/nodes/pv1-1/qemu/100/config', {
      form: { tags: 'Proxy_Operator;with-hyphen', ide2: 'proxy-seeds:iso/x-seed.iso,media=cdrom' },
    });
    expect(ok.status).toBe(200);
    const config = (await pve(sim, 'GET', '/nodes/pv1-1/qemu/100/config')).data as Record<string, unknown>;
    expect(config.tags).toBe('proxy_operator;with-hyphen');
    expect(config.boot).toBe('order=scsi0;ide2');
    const bad = await pve(sim, 'PUT', '/nodes/pv1-1/qemu/100/config', { form: { tags: 'bad tag!' } });
    expect([bad.status, bad.body]).toEqual([400, fixture('err_tag_invalid').body]);
  });
});

// Issue 23: notes and tags as qemu-server keeps them.
describe('notes and tags (qemu-server, pve-common, pve-guest-common)', () => {
  const put = (form: Record<string, string>) => pve(sim, 'PUT', '/nodes/pv1-1/qemu/100/config', { form });
  const read = async () => (await pve(sim, 'GET', '/nodes/pv1-1/qemu/100/config')).data as Record<string, string>;

  it('stores tags sorted, folded and without repeats, joined by ; (GuestHelpers.pm get_unique_tags)', async () => {
    expect((await put({ tags: 'zeta,Lab lab;alpha' })).status).toBe(200);
    expect((await read()).tags).toBe('alpha;lab;zeta');
    const listed = (await resources()).find((r) => r.vmid === 100);
    expect(listed?.tags).toBe('alpha;lab;zeta');
  });

  it('keeps the description verbatim but for trailing whitespace (QemuServer.pm parse_vm_config), at most 8192 characters', async () => {
    expect((await put({ description: 'a=1\r\nb=2\n\nnotes here\n\n  ' })).status).toBe(200);
    expect((await read()).description).toBe('a=1\r\nb=2\n\nnotes here');
    const long = await put({ description: 'x'.repeat(8193) });
    expect(long.status).toBe(400);
    expect(JSON.parse(long.body).errors).toEqual({ description: 'value may only be 8192 characters long' });
  });

  it("refuses a write whose digest is not the config's (Tools.pm assert_if_modified), and takes the current one", async () => {
    const { digest } = await read();
    const stale = await put({ description: 'first', digest: 'f'.repeat(40) });
    expect([stale.status, stale.reason]).toEqual([500, 'detected modified configuration - file changed by other user? Try again.']);
    expect((await put({ description: 'second', digest: digest! })).status).toBe(200);
    expect((await read()).description).toBe('second');
    expect((await put({ delete: 'description,tags' })).status).toBe(200);
    expect(Object.keys(await read())).not.toContain('description');
  });
});

describe('upload and volume delete (F12, F13, F17)', () => {
  it('requires .iso, overwrites an existing name, and deletes as a task that also succeeds on a missing volume', async () => {
    const bad = await pve(sim, 'POST', '/nodes/pv1-1/storage/proxy-seeds/upload', {
      body: await isoUpload('seed.img', new Uint8Array(4)),
      token: 'operator',
    });
    expect([bad.status, bad.body]).toEqual([400, fixture('err_upload_bad_name').body]);
    for (const size of [4, 8]) {
      const up = await pve(sim, 'POST', '/nodes/pv1-1/storage/proxy-seeds/upload', {
        body: await isoUpload('p-seed.iso', new Uint8Array(size)),
        token: 'operator',
      });
      expect((await waitTask(sim, up.data as string)).exitstatus).toBe('OK');
    }
    expect(sim.state.iso('pv1-1', 'proxy-seeds', 'p-seed.iso')!.bytes.length).toBe(8);
    for (let i = 0; i < 2; i++) {
      const del = await pve(sim, 'DELETE', `/nodes/pv1-1/storage/proxy-seeds/content/${encodeURIComponent('proxy-seeds:iso/p-seed.iso')}`, {
        token: 'operator',
      });
      expect(del.data).toMatch(/:imgdel:proxy-seeds:proxy-operator@pve!operator:$/);
      expect((await waitTask(sim, del.data as string)).exitstatus).toBe('OK');
    }
    expect(sim.state.iso('pv1-1', 'proxy-seeds', 'p-seed.iso')).toBeUndefined();
  });

  it('answers 403 for a delete without Datastore.Allocate, as on the real host', async () => {
    const del = await pve(sim, 'DELETE', `/nodes/pv1-1/storage/local/content/${encodeURIComponent('local:iso/x.iso')}`, {
      token: 'operator',
    });
    expect([del.status, del.body]).toEqual([403, fixture('err_forbidden_volume_delete').body]);
    const seed = await pve(sim, 'DELETE', `/nodes/pv1-1/storage/proxy-seeds/content/${encodeURIComponent('proxy-seeds:iso/x.iso')}`, {
      token: 'noSeedAllocate',
    });
    expect([seed.status, seed.reason]).toEqual([
      403,
      fixtureMessage('err_forbidden_volume_delete').replace('/storage/local', '/storage/proxy-seeds'),
    ]);
    const perms = (await pve(sim, 'GET', '/access/permissions', { query: { path: '/storage/proxy-seeds' }, token: 'operator' }))
      .data as Record<string, Record<string, number>>;
    expect(perms['/storage/proxy-seeds']).toHaveProperty('Datastore.Allocate', 1);
    expect(perms['/storage/proxy-seeds']).not.toHaveProperty('VM.Clone');
  });
});

describe('resize (F20)', () => {
  it('is a task: same size OK, larger grows the disk, shrink fails in the task', async () => {
    const run = async (size: string) =>
      waitTask(sim, (await pve(sim, 'PUT', '/nodes/pv1-1/qemu/100/resize', { form: { disk: 'scsi0', size } })).data as string);
    expect((await run('32G')).exitstatus).toBe('OK');
    expect((await run('40G')).exitstatus).toBe('OK');
    expect(sim.state.vm(100)!.config.scsi0).toContain('size=40G');
    expect((await run('8G')).exitstatus).toBe(JSON.parse(fixture('task_status_stopped_error').body).data.exitstatus);
  });
});

describe('power, status and agent (F5, F14, F21, destroy)', () => {
  it('shows paused as running in the listing and qmpstatus paused in status/current', async () => {
    sim.state.setPower(100, 'paused');
    expect((await resources()).find((r) => r.vmid === 100)!.status).toBe('running');
    expect((await pve(sim, 'GET', '/nodes/pv1-1/qemu/100/status/current')).data).toMatchObject({ status: 'running', qmpstatus: 'paused' });
  });

  it('gives the three agent answers and an address once the agent delay has passed', async () => {
    const agent = () => pve(sim, 'GET', '/nodes/pv1-1/qemu/100/agent/network-get-interfaces');
    expect((await agent()).reason).toBe(fixtureMessage('err_agent_unconfigured'));
    await pve(sim, 'PUT', '/nodes/pv1-1/qemu/100/config', { form: { agent: '1' } });
    expect((await agent()).reason).toBe(fixtureMessage('err_agent_vm_stopped').replace('199999', '100'));
    await waitTask(sim, (await pve(sim, 'POST', '/nodes/pv1-1/qemu/100/status/start')).data as string);
    // Just started, whatever the machine's load made of the 20 ms the delay is at this time scale (CI saw 'OK' here
    // once, at a load of 16).
    sim.state.vm(100)!.startedAt = sim.clock.now();
    expect((await agent()).reason).toBe(fixtureMessage('err_agent_not_running'));
    await new Promise((r) => setTimeout(r, 25)); // 20 s simulated
    const result = (
      (await agent()).data as { result: { name: string; 'ip-addresses': { 'ip-address': string; 'ip-address-type': string }[] }[] }
    ).result;
    const ens18 = result.find((i) => i.name === 'ens18')!;
    expect(ens18['ip-addresses'].find((a) => a['ip-address-type'] === 'ipv4')!['ip-address']).toMatch(/^192\.168\.0\.\d+$/);
  });

  it('destroys a hibernated VM, and refuses a missing one with the F2 text', async () => {
    sim.state.setPower(100, 'hibernated');
    expect((await resources()).find((r) => r.vmid === 100)).toMatchObject({ status: 'stopped', lock: 'suspended' });
    const d = await pve(sim, 'DELETE', '/nodes/pv1-1/qemu/100', { query: { purge: 1, 'destroy-unreferenced-disks': 1 } });
    expect(d.data).toMatch(/:qmdestroy:100:/);
    expect((await waitTask(sim, d.data as string)).exitstatus).toBe('OK');
    const again = await pve(sim, 'DELETE', '/nodes/pv1-1/qemu/100', { query: { purge: 1, 'destroy-unreferenced-disks': 1 } });
    expect(again.reason).toBe(fixtureMessage('err_config_missing').replace('199999', '100'));
  });
});

describe('faults and nodes', () => {
  it('answers 595 for a node that is down and lists its guests as unknown', async () => {
    sim.faults.nodeDown('pv1-1');
    const a = await pve(sim, 'GET', '/nodes/pv1-1/qemu/100/status/current');
    expect([a.status, a.reason]).toEqual([595, fixture('err_proxy_595').reason]);
    expect((await resources()).every((r) => r.status === 'unknown')).toBe(true);
    sim.faults.nodeUp('pv1-1');
    expect((await pve(sim, 'GET', '/nodes/pv1-1/qemu/100/status/current')).status).toBe(200);
  });

  it('injects a fixture answer, a 596, a failing task and a hanging task', async () => {
    sim.faults.inject({ route: '/cluster/resources' }, { kind: 'error', fixture: 'err_forbidden' }, 1);
    expect((await pve(sim, 'GET', '/cluster/resources')).body).toBe(fixture('err_forbidden').body);
    expect((await pve(sim, 'GET', '/cluster/resources')).status).toBe(200);
    sim.faults.inject({ node: 'pv1-1', method: 'GET' }, { kind: 'unreachable', status: 596 }, 1);
    expect((await pve(sim, 'GET', '/nodes/pv1-1/status')).status).toBe(596);
    sim.faults.failTask({ type: 'qmstart' }, 'task_status_stopped_error', 1);
    const s = await pve(sim, 'POST', '/nodes/pv1-1/qemu/100/status/start');
    expect((await waitTask(sim, s.data as string)).exitstatus).toBe(JSON.parse(fixture('task_status_stopped_error').body).data.exitstatus);
    sim.faults.hangTask({ type: 'qmstop' }, 1);
    const stop = await pve(sim, 'POST', '/nodes/pv1-1/qemu/100/status/stop');
    await new Promise((r) => setTimeout(r, 20));
    expect((await pve(sim, 'GET', `/nodes/pv1-1/tasks/${encodeURIComponent(stop.data as string)}/status`)).data).toMatchObject({
      status: 'running',
    });
  });

  it('cuts a response mid-body on a reset fault', async () => {
    sim.faults.inject({ route: '/cluster/resources' }, { kind: 'reset' }, 1);
    await expect(pve(sim, 'GET', '/cluster/resources')).rejects.toThrow();
  });
});
