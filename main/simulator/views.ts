/**
 * Answer shapes built from the state, with the fields and value types the
 * captures show (F8, F14): numbers where Proxmox sends numbers, `lock` and
 * `tags` only when set, a mid-clone entry with no name.
 */
import { bootDiskBytes } from './disks';
import { isUp, type SimNode, type SimVm } from './state';
import type { StorageDefinition } from './types';

const MiB = 1024 * 1024;
export const NODE_MAXMEM = 64 * 1024 ** 3;
export const NODE_MAXCPU = 16;

export function vmStatusWord(vm: SimVm, node: SimNode | undefined): string {
  if (vm.cloning || !node?.online) return 'unknown';
  return isUp(vm.power) ? 'running' : 'stopped';
}

export function uptimeSeconds(vm: SimVm, nowMs: number): number {
  return vm.startedAt === undefined || !isUp(vm.power) ? 0 : Math.floor((nowMs - vm.startedAt) / 1000);
}

export function vmResource(vm: SimVm, node: SimNode | undefined, nowMs: number): Record<string, unknown> {
  const status = vmStatusWord(vm, node);
  if (vm.cloning) return { type: 'qemu', vmid: vm.vmid, lock: vm.lock ?? 'clone', status, id: `qemu/${vm.vmid}`, node: vm.node };
  const running = status === 'running';
  const maxmem = Number(vm.config.memory ?? 512) * MiB;
  const entry: Record<string, unknown> = {
    maxmem,
    netin: 0,
    uptime: uptimeSeconds(vm, nowMs),
    disk: 0,
    netout: 0,
    mem: running ? Math.floor(maxmem * 0.4) : 0,
    maxdisk: bootDiskBytes(vm.config),
    maxcpu: Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1),
    type: 'qemu',
    memhost: running ? Math.floor(maxmem * 0.4) : 0,
    template: vm.template ? 1 : 0,
    id: `qemu/${vm.vmid}`,
    cpu: running ? 0.01 : 0,
    vmid: vm.vmid,
    status,
    diskwrite: 0,
    diskread: 0,
    node: vm.node,
  };
  if (vm.config.name !== undefined) entry.name = String(vm.config.name);
  if (vm.config.tags !== undefined) entry.tags = String(vm.config.tags);
  if (vm.lock) entry.lock = vm.lock;
  return entry;
}

export function nodeResource(node: SimNode): Record<string, unknown> {
  if (!node.online) return { id: `node/${node.node}`, type: 'node', node: node.node, status: 'offline' };
  return {
    id: `node/${node.node}`,
    type: 'node',
    node: node.node,
    status: 'online',
    cpu: 0.03,
    maxcpu: NODE_MAXCPU,
    mem: Math.floor(NODE_MAXMEM * 0.3),
    maxmem: NODE_MAXMEM,
    disk: 8 * 1024 ** 3,
    maxdisk: 100 * 1024 ** 3,
    uptime: 864000,
    level: '',
    'cgroup-mode': 2,
  };
}

export function storageUsage(s: StorageDefinition): { total: number; used: number; avail: number } {
  const used = s.usedBytes ?? Math.floor(s.totalBytes * 0.2);
  return { total: s.totalBytes, used, avail: s.totalBytes - used };
}

export function storageResource(node: SimNode, s: StorageDefinition): Record<string, unknown> {
  const u = storageUsage(s);
  return {
    id: `storage/${node.node}/${s.storage}`,
    type: 'storage',
    storage: s.storage,
    node: node.node,
    status: node.online ? 'available' : 'unknown',
    plugintype: s.type,
    content: s.content,
    shared: s.shared ? 1 : 0,
    disk: u.used,
    maxdisk: u.total,
  };
}
