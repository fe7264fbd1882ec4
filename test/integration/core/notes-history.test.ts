/**
 * Issue 23 against the simulator: a proxy's Notes and tags written by the core
 * (the marks byte for byte, one config PUT with the read's digest), and the
 * cluster's own task history of a proxy, tasks any user started on any node it
 * lived on, with their logs. Every request the core sent is checked against
 * the official API schema (../shared/pve-api).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError } from '../../../main/core';
import { minimalCluster, proxyVm } from '../../../main/simulator';
import { storages } from '../../../main/simulator/datasets';
import { loadPveSchema } from '../../support/pve-schema';
import { startSimCluster, type SimCluster } from '../../support/sim-cluster';
import { pve, waitTask } from '../simulator/raw';

const NAME = 'proxy-notes';
const ID = `vms/150001/${NAME}`;
const MARKS = 'proxy-operator-managed=true\nproxy-operator-uid=u-notes\nproxy-operator-created-at=2026-09-23T07:00:00Z';
let h: SimCluster;

beforeAll(async () => {
  const dataset = minimalCluster();
  dataset.nodes[0]!.vms.push(proxyVm(150001, NAME, 'u-notes', 'stopped'));
  dataset.nodes.push({ node: 'pv1-2', storages: storages(), bridges: dataset.nodes[0]!.bridges, vms: [] });
  h = await startSimCluster({ dataset, tokenName: 'operator', agentDelayMs: 0 });
});
afterAll(async () => h?.close());

const description = () => String(h.sim.state.vms.get(150001)!.config.description);
const provider = () => h.cluster.provider;

describe('notes and tags', () => {
  it('reads empty notes below the marks and the user tags apart from proxy_operator', async () => {
    const n = await provider().notes(ID);
    expect(n).toMatchObject({ notes: '', tags: [], proxyTag: true, marked: true, node: 'pv1-1' });
    expect(n.digest).toMatch(/^[0-9a-f]{40}$/);
  });

  it('writes notes below the marks, which stay byte for byte, and tags beside proxy_operator', async () => {
    const before = await provider().notes(ID);
    const after = await provider().setNotes(ID, { notes: 'Exit for the lab.\nAsk Kim.', tags: ['Lab', 'eu-west'], digest: before.digest });
    expect(description()).toBe(`${MARKS}\nExit for the lab.\nAsk Kim.`);
    expect(h.sim.state.vms.get(150001)!.config.tags).toBe('eu-west;lab;proxy_operator');
    expect(after).toMatchObject({ notes: 'Exit for the lab.\nAsk Kim.', tags: ['eu-west', 'lab'], proxyTag: true });
  });

  it('an edit made meanwhile in Proxmox is never overwritten: transient, nothing written', async () => {
    const seen = await provider().notes(ID);
    await pve(h.sim, 'PUT', '/nodes/pv1-1/qemu/150001/config', { form: { description: `${MARKS}\nedited in the UI` } });
    const err = await provider()
      .setNotes(ID, { notes: 'mine', digest: seen.digest })
      .catch((e: unknown) => e);
    expect(isProviderError(err) && [err.kind, err.code]).toEqual(['transient', 'notes-changed-meanwhile']);
    expect(description()).toBe(`${MARKS}\nedited in the UI`);
  });

  it('refuses, before sending anything, notes that would read as a mark and a tag Proxmox refuses', async () => {
    const seen = await provider().notes(ID);
    h.sim.requests.clear();
    for (const change of [{ notes: 'proxy-operator-uid=evil' }, { tags: ['bad tag!'] }]) {
      const err = await provider()
        .setNotes(ID, { ...change, digest: seen.digest })
        .catch((e: unknown) => e);
      expect(isProviderError(err) && err.kind).toBe('permanent');
    }
    expect(h.sim.requests.records.filter((r) => r.method === 'PUT')).toEqual([]);
  });

  it('clearing notes and tags leaves the marks and proxy_operator', async () => {
    const seen = await provider().notes(ID);
    await provider().setNotes(ID, { notes: '', tags: [], digest: seen.digest });
    expect(description()).toBe(MARKS);
    expect(h.sim.state.vms.get(150001)!.config.tags).toBe('proxy_operator');
  });

  it('a VM without the mark is read, never written', async () => {
    const foreign = `vms/100/ubuntu-vm-1`;
    expect((await provider().notes(foreign)).marked).toBe(false);
    const err = await provider()
      .setNotes(foreign, { notes: 'x', digest: '' })
      .catch((e: unknown) => e);
    expect(isProviderError(err) && err.code).toBe('notes-not-marked');
  });
});

describe("the cluster's task history of a proxy", () => {
  it("lists tasks other users started, on every node the VM lived on, newest first, with each task's log", async () => {
    // Another user (the admin token, as in the Proxmox UI) detaches the local seed, moves the VM to pv1-2 and starts it there.
    expect((await pve(h.sim, 'PUT', '/nodes/pv1-1/qemu/150001/config', { form: { delete: 'ide2' } })).status).toBe(200);
    const moved = await pve(h.sim, 'POST', '/nodes/pv1-1/qemu/150001/migrate', { form: { target: 'pv1-2', 'with-local-disks': 1 } });
    expect(moved.status, moved.body).toBe(200);
    expect(await waitTask(h.sim, moved.data as string)).toMatchObject({ exitstatus: 'OK' });
    const started = await pve(h.sim, 'POST', '/nodes/pv1-2/qemu/150001/status/start', { form: {} });
    expect(started.status, started.body).toBe(200);
    await waitTask(h.sim, started.data as string);
    const history = await provider().taskHistory(ID, { limit: 10 });
    expect(history.tasks.map((t) => [t.type, t.node])).toEqual([
      ['qmstart', 'pv1-2'],
      ['qmigrate', 'pv1-1'],
    ]);
    expect(history.tasks[0]!.user).toBe(h.sim.tokens.admin!.tokenId);
    expect(history.tasks.every((t) => t.status === 'OK')).toBe(true);
    expect(history).toMatchObject({ unread: [], truncated: false });
    const log = await provider().taskHistoryLog(150001, history.tasks[1]!.upid, { limit: 20 });
    expect(log.lines.length).toBeGreaterThan(0);
    expect(log.lines.length).toBeLessThanOrEqual(20);
  });

  it('is bounded: at most the limit, and says when there was more', async () => {
    const history = await provider().taskHistory(ID, { limit: 1 });
    expect(history.tasks).toHaveLength(1);
    expect(history.truncated).toBe(true);
    const perNode = h.sim.requests.records.filter((r) => r.route === '/nodes/{node}/tasks').map((r) => r.query.limit);
    expect(perNode.at(-1)).toBe('2');
  });

  it("refuses the log of another VM's task", async () => {
    const history = await provider().taskHistory(ID);
    const err = await provider()
      .taskHistoryLog(100, history.tasks[0]!.upid)
      .catch((e: unknown) => e);
    expect(isProviderError(err) && err.kind).toBe('permanent');
  });
});

const loaded = loadPveSchema();
describe('conformance', () => {
  it('every request the core sent for notes and the task history is one the official API schema accepts', (ctx) => {
    if ('skipReason' in loaded) {
      ctx.skip(`the official API schema is absent: ${loaded.skipReason}`);
      return;
    }
    const records = h.sim.requests.records;
    expect(records.some((r) => r.method === 'PUT' && r.route === '/nodes/{node}/qemu/{vmid}/config')).toBe(true);
    expect(records.some((r) => r.route === '/nodes/{node}/tasks/{upid}/log')).toBe(true);
    expect(records.flatMap((r) => loaded.schema.check({ method: r.method, path: r.rawPath, params: { ...r.query, ...r.form } }))).toEqual([]);
  });
});
