/**
 * Every endpoint over real HTTPS against byte-for-byte replays of the
 * fixtures: what the client sends (method, path, query, form) and what it
 * makes of the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, fixtureJson, fixtureNames } from '../../../fixtures';
import { parseUpid } from '../../../main/core/pve/upid';
import { startHarness, TOKEN_ID, SECRET, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const upidOf = (name: string) => fixtureJson<{ data: string }>(name)!.data;
const last = () => h.server.requests.at(-1)!;

describe('reads', () => {
  it('version: sends the token header and reads the version', async () => {
    h.server.route('GET', '/version', { fixture: 'version' });
    const v = await h.client.version();
    expect(v).toEqual(fixtureJson<{ data: unknown }>('version')!.data);
    expect(last().headers.authorization).toBe(`PVEAPIToken=${TOKEN_ID}=${SECRET}`);
    expect(last().pathname).toBe('/api2/json/version');
  });

  it('nodes and cluster status, with 0/1 flags read as booleans', async () => {
    h.server.route('GET', '/nodes', { fixture: 'nodes' });
    h.server.route('GET', '/cluster/status', { fixture: 'cluster_status' });
    const nodes = await h.client.nodes();
    expect(nodes.map((n) => [n.node, n.status])).toEqual([['pv1-1', 'online']]);
    const status = await h.client.clusterStatus();
    expect(status[0]).toMatchObject({ type: 'node', name: 'pv1-1', online: true, local: true });
  });

  it('cluster resources: sends ?type=vm, keeps templates apart, accepts a nameless locked entry mid-clone (F8)', async () => {
    h.server.route('GET', '/cluster/resources', (req) => ({
      fixture: req.query.get('type') === 'vm' ? 'cluster_resources_during_clone' : 'cluster_resources',
    }));
    const during = await h.client.clusterResources('vm');
    expect(last().query.get('type')).toBe('vm');
    const cloning = during.find((r) => r.vmid === 199999)!;
    expect(cloning).toMatchObject({ lock: 'clone', status: 'unknown' });
    expect(cloning.name).toBeUndefined();
    const all = await h.client.clusterResources();
    expect(last().url).toBe('/api2/json/cluster/resources');
    expect(all.filter((r) => r.template).map((r) => r.vmid)).toEqual([9000, 9001]);
  });

  it('node status: the kernel comes from current-kernel', async () => {
    h.server.route('GET', '/nodes/pv1-1/status', { fixture: 'node_status' });
    const s = await h.client.nodeStatus('pv1-1');
    expect(s.kernel).toBe('7.0.14-17-pve');
    expect(s.pveversion).toContain('9.2.20');
    expect(s.memory.total).toBeGreaterThan(s.memory.used);
  });

  it('storage list, status and iso content: content lists parsed, flags as booleans', async () => {
    h.server.route('GET', '/nodes/pv1-1/storage', { fixture: 'storage_list' });
    h.server.route('GET', '/nodes/pv1-1/storage/proxy-seeds/status', { fixture: 'storage_status' });
    h.server.route('GET', '/nodes/pv1-1/storage/proxy-seeds/content', { fixture: 'storage_content_iso' });
    const list = await h.client.storageList('pv1-1');
    expect(list.find((s) => s.storage === 'local-lvm')!.content).toEqual(['images', 'rootdir']);
    const status = await h.client.storageStatus('pv1-1', 'proxy-seeds');
    expect(status).toMatchObject({ type: 'dir', content: ['iso'], active: true });
    const content = await h.client.storageContent('pv1-1', 'proxy-seeds', 'iso');
    expect(last().query.get('content')).toBe('iso');
    expect(content[0]).toMatchObject({ format: 'iso', size: 45056 });
  });

  it('vm config: scalars normalised to strings (F19: cores a number, memory a string)', async () => {
    h.server.route('GET', '/nodes/pv1-1/qemu/199999/config', { fixture: 'config_during_destroy' });
    const config = await h.client.vmConfig('pv1-1', 199999);
    const raw = fixtureJson<{ data: Record<string, unknown> }>('config_during_destroy')!.data;
    expect(typeof raw.cores).toBe('number');
    expect(config.cores).toBe(String(raw.cores));
    expect(config.memory).toBe(raw.memory);
    expect(config.description).toBe(raw.description);
  });

  it.each([
    ['status_current_running', 'running', 'running'],
    ['status_current_stopped', 'stopped', 'stopped'],
    ['status_current_paused', 'running', 'paused'],
    ['status_current_hibernated', 'stopped', 'stopped'],
  ])('vm status %s', async (name, status, qmpstatus) => {
    h.server.route('GET', '/nodes/pv1-1/qemu/199999/status/current', { fixture: name });
    expect(await h.client.vmStatus('pv1-1', 199999)).toMatchObject({ status, qmpstatus });
  });

  it.each([
    ['task_status_running', 'running', undefined],
    ['task_status_ok', 'stopped', 'OK'],
    ['task_status_stopped_error', 'stopped', 'shrinking disks is not supported'],
    ['task_status_volume_missing', 'stopped', 'OK'],
    ['task_status_warnings', 'stopped', 'WARNINGS: 1'],
  ])('task status %s', async (name, status, exitstatus) => {
    const upid = fixtureJson<{ data: { upid: string } }>(name)!.data.upid;
    h.server.route('GET', /^\/nodes\/pv1-1\/tasks\/[^/]+\/status$/, { fixture: name });
    const t = await h.client.taskStatus(parseUpid(upid).node, upid);
    expect(t.status).toBe(status);
    expect(t.exitstatus).toBe(exitstatus);
    // The UPID travels escaped as one path segment.
    expect(last().pathname).toBe(`/api2/json/nodes/pv1-1/tasks/${encodeURIComponent(upid)}/status`);
  });

  it('task log: paged, with the total beside data', async () => {
    h.server.route('GET', /\/tasks\/[^/]+\/log$/, { fixture: 'task_log_imgdel_missing' });
    const upid = upidOf('content_delete_again_response');
    const log = await h.client.taskLog('pv1-1', upid, { start: 0, limit: 50 });
    expect(last().query.get('start')).toBe('0');
    expect(last().query.get('limit')).toBe('50');
    expect(log.total).toBe(3);
    expect(log.lines.map((l) => l.n)).toEqual([1, 2, 3]);
    expect(log.lines[1]!.t).toMatch(/^Removed volume/);
  });

  it('agent interfaces: the result list (F21)', async () => {
    h.server.route('GET', '/nodes/pv1-1/qemu/199999/agent/network-get-interfaces', { fixture: 'agent_network_get_interfaces_vlan' });
    const ifaces = await h.client.agentNetworkInterfaces('pv1-1', 199999);
    const addrs = ifaces.flatMap((i) => i['ip-addresses'] ?? []).map((a) => a['ip-address']);
    expect(addrs).toContain('192.168.4.147');
  });

  it('network: ?type=bridge, VLAN-aware flag as a boolean', async () => {
    h.server.route('GET', '/nodes/pv1-1/network', { fixture: 'network' });
    const net = await h.client.network('pv1-1', 'bridge');
    expect(last().query.get('type')).toBe('bridge');
    expect(net.find((n) => n.iface === 'vmbr0')).toMatchObject({ type: 'bridge', bridge_vlan_aware: true });
  });

  it('permissions: path to privilege to 0/1', async () => {
    h.server.route('GET', '/access/permissions', { fixture: 'permissions' });
    const perms = await h.client.permissions('/storage/proxy-seeds');
    expect(last().query.get('path')).toBe('/storage/proxy-seeds');
    expect(perms['/storage/proxy-seeds']!['Datastore.Allocate']).toBe(1);
    expect(perms['/']!['VM.Clone']).toBe(1);
  });
});

describe('connection reuse', () => {
  it('sequential calls share one keep-alive connection', async () => {
    h.server.route('GET', '/version', { fixture: 'version' });
    const before = h.server.connections();
    for (let i = 0; i < 10; i++) await h.client.version();
    expect(h.server.connections() - before).toBeLessThanOrEqual(1);
    expect(h.server.requests.at(-1)!.headers.connection ?? 'keep-alive').not.toBe('close');
  });
});

describe('writes', () => {
  const form = () => Object.fromEntries(new URLSearchParams(last().body.toString('utf8')));

  it('clone: form-encoded newid, name, description (newlines intact, F10), full, target, storage', async () => {
    h.server.route('POST', '/nodes/pv1-1/qemu/9001/clone', { fixture: 'clone_response' });
    const description = 'proxy-operator-managed=true\nproxy-operator-uid=u1';
    const upid = await h.client.clone('pv1-1', 9001, {
      newid: 199999,
      name: 'proxy-reconaaaaaaaaaaa',
      description,
      full: 1,
      target: 'pv1-1',
      storage: 'local-lvm',
    });
    expect(upid).toBe(upidOf('clone_response'));
    expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(form()).toEqual({
      newid: '199999',
      name: 'proxy-reconaaaaaaaaaaa',
      description,
      full: '1',
      target: 'pv1-1',
      storage: 'local-lvm',
    });
  });

  it('set config: PUT form, synchronous', async () => {
    h.server.route('PUT', '/nodes/pv1-1/qemu/199999/config', { fixture: 'set_config_response' });
    await h.client.setVmConfig('pv1-1', 199999, { cores: 2, memory: 2048, ide2: 'proxy-seeds:iso/x.iso,media=cdrom' });
    expect(last().method).toBe('PUT');
    expect(form()).toEqual({ cores: '2', memory: '2048', ide2: 'proxy-seeds:iso/x.iso,media=cdrom' });
  });

  it('resize, start, stop answer UPIDs', async () => {
    h.server.route('PUT', '/nodes/pv1-1/qemu/199999/resize', { fixture: 'resize_same_size_response' });
    h.server.route('POST', '/nodes/pv1-1/qemu/199999/status/start', { fixture: 'start_response' });
    h.server.route('POST', '/nodes/pv1-1/qemu/199999/status/stop', { fixture: 'stop_response' });
    expect(parseUpid((await h.client.resize('pv1-1', 199999, 'scsi0', '8G'))!).type).toBe('qmresize'); // a task since PVE 8.0
    expect(form()).toEqual({ disk: 'scsi0', size: '8G' });
    expect(parseUpid(await h.client.start('pv1-1', 199999)).type).toBe('qmstart');
    expect(parseUpid(await h.client.stop('pv1-1', 199999)).type).toBe('qmstop');
  });

  it('destroy: DELETE with purge=1&destroy-unreferenced-disks=1', async () => {
    h.server.route('DELETE', '/nodes/pv1-1/qemu/199999', { fixture: 'destroy_response' });
    expect(await h.client.destroy('pv1-1', 199999)).toBe(upidOf('destroy_response'));
    expect(last().url).toBe('/api2/json/nodes/pv1-1/qemu/199999?purge=1&destroy-unreferenced-disks=1');
  });

  it('delete volume: the volid is one escaped path segment (/ as %2F)', async () => {
    h.server.route('DELETE', /^\/nodes\/pv1-1\/storage\/proxy-seeds\/content\/.+$/, { fixture: 'content_delete_response' });
    const upid = await h.client.deleteVolume('pv1-1', 'proxy-seeds', 'proxy-seeds:iso/proxy-reconaaaaaaaaaaa-seed.iso');
    expect(parseUpid(upid)).toMatchObject({ type: 'imgdel', id: 'proxy-seeds', node: 'pv1-1' });
    expect(last().url).toBe('/api2/json/nodes/pv1-1/storage/proxy-seeds/content/proxy-seeds%3Aiso%2Fproxy-reconaaaaaaaaaaa-seed.iso');
  });

  it('upload: multipart content=iso then the file part `filename`, exact Content-Length, bytes intact', async () => {
    h.server.route('POST', '/nodes/pv1-1/storage/proxy-seeds/upload', { fixture: 'upload_response' });
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 7) % 251);
    const upid = await h.client.uploadIso('pv1-1', 'proxy-seeds', 'proxy-reconaaaaaaaaaaa-seed.iso', bytes);
    expect(parseUpid(upid).type).toBe('imgcopy');
    const req = last();
    expect(Number(req.headers['content-length'])).toBe(req.body.byteLength);
    expect(req.headers['transfer-encoding']).toBeUndefined();
    const boundary = /boundary=(.+)$/.exec(String(req.headers['content-type']))![1]!;
    const text = req.body.toString('latin1');
    const contentAt = text.indexOf('name="content"\r\n\r\niso\r\n');
    const fileAt = text.indexOf('name="filename"; filename="proxy-reconaaaaaaaaaaa-seed.iso"');
    expect(contentAt).toBeGreaterThan(0);
    expect(fileAt).toBeGreaterThan(contentAt);
    const start = req.body.indexOf('\r\n\r\n', fileAt) + 4;
    const end = req.body.indexOf(`\r\n--${boundary}--`, start);
    expect(Buffer.compare(req.body.subarray(start, end), Buffer.from(bytes))).toBe(0);
  });

  it('upload: a name that could break the part header is refused before anything is sent', async () => {
    const before = h.server.requests.length;
    await expect(h.client.uploadIso('pv1-1', 'proxy-seeds', 'a"b.iso', new Uint8Array(1))).rejects.toMatchObject({
      name: 'InvalidRequestError',
    });
    expect(h.server.requests.length).toBe(before);
  });
});

describe('every error fixture becomes an ApiError with its text', () => {
  // Every answer with a non-2xx status, captured or reconstructed (the simulator's own ones included).
  const errorFixtures = fixtureNames().filter((n) => fixture(n).status >= 300);
  const proxmoxErrors = [
    'err_agent_not_running',
    'err_agent_unconfigured',
    'err_agent_vm_stopped',
    'err_auth_failed',
    'err_bad_param',
    'err_clone_storage_no_images',
    'err_clone_vmid_taken',
    'err_config_locked',
    'err_config_missing',
    'err_forbidden',
    'err_forbidden_volume_delete',
    'err_no_ticket',
    'err_proxy_595',
    'err_proxy_596',
    'err_tag_invalid',
    'err_upload_bad_name',
    'storage_status_missing',
  ];
  it('covers every Proxmox error answer the facts describe', () => {
    expect(errorFixtures).toEqual(expect.arrayContaining(proxmoxErrors));
  });

  it.each(errorFixtures)('%s', async (name) => {
    h.server.route('GET', '/version', { fixture: name });
    const f = fixture(name);
    const err = await h.client.version().then(
      () => undefined,
      (e: unknown) => e as { status: number; message: string; errors?: unknown; method: string; path: string },
    );
    expect(err).toMatchObject({ name: 'ApiError', status: f.status, method: 'GET', path: '/version' });
    const body = f.body ? (JSON.parse(f.body) as { message?: string; errors?: unknown }) : {};
    expect(err!.message).toBe(body.message ? body.message.replace(/\n$/, '') : f.reason);
    expect(err!.errors).toEqual(body.errors);
  });
});
