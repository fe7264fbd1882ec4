/**
 * Issue 27 item 4: when a kept mark and a kept address still stand for what
 * the listing says of a VM (main/services/inventory/memory.ts), and what a
 * memory file that cannot be used costs: nothing but a cold start.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterResource } from '../../../../main/core';
import { createMemoryLogger } from '../../../../main/log/logger';
import {
  addressStillStands,
  configShape,
  fileInventoryMemory,
  markStillStands,
  type KeptVm,
} from '../../../../main/services/inventory/memory';

const NOW = Date.parse('2026-12-02T12:00:00Z');
const listed: ClusterResource = {
  type: 'qemu',
  vmid: 4242,
  name: 'proxy-a',
  node: 'pve1',
  status: 'running',
  uptime: 3_600,
  tags: 'proxy_operator',
  maxcpu: 1,
  maxmem: 1024 * 2 ** 20,
  maxdisk: 4 * 2 ** 30,
} as ClusterResource;
const kept: KeptVm = {
  vmid: 4242,
  name: 'proxy-a',
  node: 'pve1',
  shape: configShape(listed),
  mark: { managed: true, uid: '00000000-0000-4000-8000-000000004242' },
  address: '10.0.0.7',
  uptime: 3_000,
  startedAtMs: NOW - 3_600_000,
};

describe('the key of a kept mark', () => {
  it('stands while the listing shows the VM as it was', () => expect(markStillStands(kept, listed)).toBe(true));
  it.each([
    ['renamed', { name: 'proxy-b' }],
    ['moved', { node: 'pve2' }],
    ['resized', { maxmem: 2048 * 2 ** 20 }],
    ['retagged', { tags: 'other' }],
    ['made a template', { template: true }],
    ['another VMID', { vmid: 4243 }],
  ])('falls when the VM was %s', (_what, change) => expect(markStillStands(kept, { ...listed, ...change } as ClusterResource)).toBe(false));
});

describe('a kept address', () => {
  it('stands for the same boot', () => expect(addressStillStands(kept, listed, NOW)).toBe(true));
  it('falls when the uptime went backwards (a restart)', () =>
    expect(addressStillStands(kept, { ...listed, uptime: 120 }, NOW)).toBe(false));
  it('falls when the guest restarted long enough ago that its uptime passed the kept one', () =>
    expect(addressStillStands(kept, { ...listed, uptime: 3_100 }, NOW)).toBe(false));
  it('falls when the guest is stopped', () => expect(addressStillStands(kept, { ...listed, status: 'stopped' }, NOW)).toBe(false));
});

describe('the memory file', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('gives back what was saved, for the same cluster URL only', () => {
    dir = mkdtempSync(join(tmpdir(), 'inventory-memory-unit-'));
    const log = createMemoryLogger('info');
    const memory = fileInventoryMemory(dir, log);
    memory.save('lab', 'https://pve.example:8006', [kept]);
    expect(memory.load('lab', 'https://pve.example:8006')?.get(4242)).toEqual(kept);
    expect(memory.load('lab', 'https://other.example:8006')).toBeUndefined();
    expect(log.lines.some((l) => l.includes('another cluster address'))).toBe(true);
    expect(memory.load('other', 'https://pve.example:8006')).toBeUndefined();
  });

  it('a file with a key it does not know is ignored, not trusted', () => {
    dir = mkdtempSync(join(tmpdir(), 'inventory-memory-unit-'));
    const log = createMemoryLogger('info');
    const memory = fileInventoryMemory(dir, log);
    memory.save('lab', 'u', [kept]);
    const [file] = readdirSync(dir);
    writeFileSync(
      join(dir, file!),
      JSON.stringify({ version: 1, clusterId: 'lab', url: 'u', savedAt: 'x', vms: [{ ...kept, secret: 'x' }] }),
    );
    expect(memory.load('lab', 'u')).toBeUndefined();
    expect(log.lines.some((l) => l.includes('not the expected shape'))).toBe(true);
  });
});
