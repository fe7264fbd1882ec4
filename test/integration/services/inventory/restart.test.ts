/**
 * Issue 27 item 4: a restart of the app costs the listing, not a config read
 * and an agent read per VM: what the inventory learned is kept in the data
 * folder (main/services/inventory/memory.ts) and given back to the rows at
 * the first listing for every VM the listing shows unchanged. Counted on the
 * simulator; the clock is moved by hand.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VmRow } from '../../../../shared/channels/inventory';
import { isProviderError, writtenMarksOf } from '../../../../main/core';
import type { DeleteOptions } from '../../../../main/core/provider/operations/delete';
import { createLogger, createMemoryLogger } from '../../../../main/log/logger';
import { fileInventoryMemory, type InventoryMemory } from '../../../../main/services/inventory/memory';
import { AGENT, CONFIG, LISTING, startInventory, type InventoryHarness } from '../../../support/services/inventory/harness';

const UID_OTHER = '0b0b0b0b-1111-4222-8333-444444444444';
const SENTINEL = 'SENTINEL-inventory-memory-7f3a';

let h: InventoryHarness | undefined;
let dir: string;
let memory: InventoryMemory;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'inventory-memory-'));
  memory = fileInventoryMemory(dir, createLogger({ sinks: [] }));
});
afterEach(async () => {
  await h?.close();
  h = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const rowsOf = (x: InventoryHarness): VmRow[] => [...x.service.snapshot('sim').clusters[0]!.vms].sort((a, b) => a.vmid - b.vmid);
/** What a user reads on a proxy row (the start time is recomputed from the uptime, to the second). */
const seen = (rows: VmRow[]) =>
  rows.map(({ vmid, name, node, owner, uid, state, address, createdAt }) => ({ vmid, name, node, owner, uid, state, address, createdAt }));
const configReadsOf = (x: InventoryHarness, vmid: number) =>
  x.sc.sim.requests.records.filter((r) => `${r.method} ${r.route}` === CONFIG && r.path.includes(`/qemu/${vmid}/`)).length;

describe('inventory restart (issue 27)', () => {
  it('shows the same proxies with their marks and addresses after one listing', async () => {
    h = await startInventory({ proxies: 10 }, { memory });
    expect(h.takeRequests()).toEqual({ [LISTING]: 1, [CONFIG]: 10, [AGENT]: 10 });
    const before = seen(rowsOf(h));
    expect(before.every((r) => r.owner === 'marked' && r.uid && r.address && r.state === 'running')).toBe(true);

    await h.restart();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1 });
    expect(seen(rowsOf(h))).toEqual(before);
  });

  it('a crash right after the first look (no orderly stop) still restarts warm: the memory is saved at once', async () => {
    h = await startInventory({ proxies: 10 }, { memory });
    const crashed = h.service;
    const stop = crashed.stop.bind(crashed);
    crashed.stop = () => undefined; // killed: nothing saved on the way out
    await h.restart();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1 });
    stop();
  });

  it('reads again a VM renamed, moved, resized or restarted while the app was closed, and only those', async () => {
    h = await startInventory({ proxies: 10 }, { memory });
    h.takeRequests();
    const state = h.sc.sim.state;
    const [renamed, moved, resized, rebooted] = [100_000, 100_002, 100_004, 100_006];
    h.service.stop();
    state.vm(renamed)!.config.name = 'proxy-renamed';
    state.vm(moved)!.node = 'pve2';
    state.vm(resized)!.config.memory = '2048';
    state.vm(rebooted)!.startedAt = h.sc.sim.clock.now() - 120_000; // up 2 min: it was up an hour when the app closed

    await h.restart();
    const requests = h.takeRequests();
    expect(requests[CONFIG]).toBe(3);
    // The renamed, moved and resized ones: their marks are read again. The rebooted one: its agent.
    expect(requests[AGENT]).toBe(4);
    const rows = new Map(rowsOf(h).map((r) => [r.vmid, r]));
    expect(rows.get(renamed)).toMatchObject({ name: 'proxy-renamed', owner: 'marked', address: expect.any(String) });
    expect(rows.get(moved)).toMatchObject({ node: 'pve2', owner: 'marked' });
    expect(rowsOf(h).every((r) => r.owner === 'marked' && r.address)).toBe(true);
  });

  it('re-reads the kept marks at one per node every 4 s while shown, none while hidden, and corrects one edited by hand while closed', async () => {
    h = await startInventory({ proxies: 10 }, { memory });
    const edited = 100_003;
    h.service.stop();
    // Someone replaced the mark in Proxmox's Notes: nothing the listing shows changed.
    h.sc.sim.state.vm(edited)!.config.description = `proxy-operator-managed=true\nproxy-operator-uid=${UID_OTHER}`;
    const log = createMemoryLogger('info');
    await h.restart({ logger: log });
    h.takeRequests();
    // Until it is read again, the row says what was kept.
    expect(h.service.vm('sim', edited)?.uid).toMatch(/^00000000-/);

    // Hidden: nothing is on screen to correct, so no kept mark is read (only the hidden cadence's listing).
    h.visibility.set('hidden');
    for (let s = 0; s < 20; s++) await h.step(1_000);
    expect(h.takeRequests()[CONFIG] ?? 0).toBe(0);
    h.visibility.set('visible');
    h.takeRequests();

    const perPass: number[] = [];
    for (let pass = 0; pass < 8; pass++) {
      let reads = 0;
      for (let s = 0; s < 4; s++) {
        await h.step(1_000);
        reads += h.takeRequests()[CONFIG] ?? 0;
      }
      perPass.push(reads);
    }
    // Two nodes: at most two every 4 s, ten in all, then none.
    expect(Math.max(...perPass)).toBeLessThanOrEqual(2);
    expect(perPass.reduce((a, b) => a + b, 0)).toBe(10);
    expect(perPass.slice(-2)).toEqual([0, 0]);
    expect(h.service.vm('sim', edited)?.uid).toBe(UID_OTHER);
    expect(log.lines.some((l) => l.includes('a kept mark no longer matched the VM: corrected'))).toBe(true);
  });

  it('a VM migrated while the app ran is kept on its new node: the next start reads nothing', async () => {
    h = await startInventory({ proxies: 4 }, { memory });
    h.sc.sim.state.vm(100_000)!.node = 'pve2';
    await h.step();
    expect(h.service.vm('sim', 100_000)?.node).toBe('pve2');
    await h.restart();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1 });
    expect(h.service.vm('sim', 100_000)).toMatchObject({ node: 'pve2', owner: 'marked', address: expect.any(String) });
  });

  it('a mark this app rewrote while it ran (a release for the operator) is what the next start shows', async () => {
    h = await startInventory({ proxies: 4 }, { memory });
    const vmid = 100_002;
    const vm = h.sc.sim.state.vm(vmid)!;
    // What the release writes (issue 26): the mark without its UID, in Proxmox and in the client's book.
    vm.config.description = 'proxy-operator-managed=true\nproxy-operator-uid=';
    writtenMarksOf(h.sc.cluster.api).rewrite(vmid, String(vm.config.name), String(vm.config.description));
    await h.step();
    expect(h.service.vm('sim', vmid)?.uid).toBeUndefined();
    await h.restart();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1 });
    expect(h.service.vm('sim', vmid)).toMatchObject({ owner: 'marked' });
    expect(h.service.vm('sim', vmid)?.uid).toBeUndefined();
  });

  it('a write still reads the config first: a stale kept mark does not let a delete touch the VM', async () => {
    h = await startInventory({ proxies: 4 }, { memory });
    const vmid = 100_001;
    h.service.stop();
    h.sc.sim.state.vm(vmid)!.config.description = `proxy-operator-managed=true\nproxy-operator-uid=${UID_OTHER}`;
    await h.restart();
    const row = h.service.vm('sim', vmid)!;
    expect(row.uid).toMatch(/^00000000-/); // the kept (now stale) mark
    h.takeRequests();

    const err = await h.sc.cluster.provider
      .delete(`vms/${vmid}/${row.name}`, { expect: { uid: row.uid } } as DeleteOptions)
      .catch((e: unknown) => e);
    expect(isProviderError(err, 'permanent')).toBe(true);
    expect((err as Error).message).toMatch(/nothing was stopped or deleted/);
    expect(configReadsOf(h, vmid)).toBeGreaterThan(0);
    expect(h.sc.sim.requests.records.some((r) => r.method === 'DELETE' || r.route.endsWith('/status/stop'))).toBe(false);
    expect(h.sc.sim.state.vm(vmid)?.power).toBe('running');
  });

  it.each([
    ['not JSON', '{"version": 1, "vms": [', 'inventory memory is not JSON'],
    ['another version', JSON.stringify({ version: 99, vms: [] }), 'inventory memory of another version'],
    [
      'not the expected shape',
      JSON.stringify({ version: 1, clusterId: 'sim', url: 'x', savedAt: 'x', vms: [{ vmid: 'a' }] }),
      'not the expected shape',
    ],
  ])('a memory file that is %s: a cold start with a log line, no failure', async (_what, text, line) => {
    h = await startInventory({ proxies: 4 }, { memory });
    h.service.stop();
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), text);
    const log = createMemoryLogger('info');
    await h.restart({ memory: fileInventoryMemory(dir, log), logger: log });
    expect(h.takeRequests()).toEqual({ [LISTING]: 1, [CONFIG]: 4, [AGENT]: 4 });
    expect(rowsOf(h).every((r) => r.owner === 'marked' && r.address)).toBe(true);
    expect(log.lines.some((l) => l.includes(line))).toBe(true);
    // The next save replaces it with a good one.
    await h.restart();
    expect(h.takeRequests()).toEqual({ [LISTING]: 1 });
  });

  it('keeps no secret: the file holds the parsed mark, the MAC and the address, 0600, nothing of the description', async () => {
    h = await startInventory({ proxies: 2 }, { memory });
    h.service.stop();
    const vm = h.sc.sim.state.vm(100_000)!;
    vm.config.description = `${vm.config.description}\nproxy password: ${SENTINEL}`;
    await h.restart();
    await h.step(1_000);
    h.service.stop();
    const [file] = readdirSync(dir);
    const text = readFileSync(join(dir, file!), 'utf8');
    expect(text).not.toContain(SENTINEL);
    expect(text).not.toContain('proxy-operator');
    expect(text).not.toMatch(/secret|token|password/i);
    if (process.platform !== 'win32') expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    const body = JSON.parse(text) as { vms: Record<string, unknown>[] };
    for (const kept of body.vms)
      expect(Object.keys(kept).sort()).toEqual(['address', 'mark', 'name', 'net0Mac', 'node', 'shape', 'startedAtMs', 'uptime', 'vmid']);
  });

  it('a removed cluster takes its memory with it', async () => {
    h = await startInventory({ proxies: 2 }, { memory });
    expect(readdirSync(dir)).toHaveLength(1);
    h.sc.directory.remove('sim');
    expect(readdirSync(dir)).toHaveLength(0);
  });
});
