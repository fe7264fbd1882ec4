/**
 * Issue 23: what a proxy's row says. Item 13: "provisioning" is only a
 * create's first boot without its address; after a reboot (an address seen
 * before) the row is running, as
 * Proxmox says. Item 9: the machine type is named only while the VM has
 * that type's cores and memory.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterResource } from '../../../../main/core/pve/schemas';
import { vmRow, type RowFacts } from '../../../../main/services/inventory/rows';
import { GuestRuntime } from '../../../../main/services/inventory/runtime';

const created = '2026-12-01T20:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(created) + minutes * 60_000).toISOString();
const r = (extra: Partial<ClusterResource> = {}): ClusterResource => ({
  id: 'qemu/101',
  type: 'qemu',
  vmid: 101,
  node: 'pve1',
  status: 'running',
  name: 'proxy-101',
  maxcpu: 2,
  maxmem: 2048 * 1024 * 1024,
  ...extra,
});
const facts = (patch: Partial<RowFacts> = {}): RowFacts => ({
  mark: { managed: true, uid: 'u-1', createdAt: created },
  address: undefined,
  startedAt: at(1),
  origin: { template: 'debian-13', machineType: 'small', size: { cores: 1, memoryMiB: 1024 } },
  ...patch,
});

describe('a proxy row', () => {
  it('is provisioning during the create’s first boot, and running after a reboot though its address is not back', () => {
    expect(vmRow('c', r(), facts()).state).toBe('provisioning');
    expect(vmRow('c', r(), facts({ addressedBefore: true })).state).toBe('running');
    expect(vmRow('c', r(), facts({ address: '10.0.0.5' })).state).toBe('running');
  });

  it('names the machine type only while the VM has its size', () => {
    expect(vmRow('c', r(), facts()).machineType).toBeUndefined(); // 2 vCPU, 2 GiB is not "small"
    expect(vmRow('c', r({ maxcpu: 1, maxmem: 1024 * 1024 * 1024 }), facts()).machineType).toBe('small');
    const medium = facts({
      origin: { template: 'debian-13', machineType: 'medium', size: { cores: 2, memoryMiB: 2048 }, userDataKept: true },
    });
    expect(vmRow('c', r(), medium)).toMatchObject({ machineType: 'medium', userDataKept: true });
  });

  it('the guest runtime remembers an address across a reboot (the uptime going back)', () => {
    const guests = new GuestRuntime({ baseMs: 1000, maxMs: 1000, bootS: 0 });
    guests.observe(101, true, 100, 0);
    guests.recordAddress(101, '10.0.0.5', 0);
    guests.observe(101, true, 3, 10_000);
    expect(guests.address(101)).toBeUndefined();
    expect(guests.addressedBefore(101)).toBe(true);
    guests.retain(new Set());
    expect(guests.addressedBefore(101)).toBe(false);
  });
});
