/**
 * Issue 11: which queue a request waits in at the pace. A clone or migrate
 * goes before other writes (its storage's copy slot is held while it waits,
 * and the disk idles). An operation's reads
 * (a create's lookup, its task listings, its address) go before the
 * inventory's background polls, so a bulk's clones, starts and addresses are
 * not queued behind the listing that only refreshes the view.
 */
import { describe, expect, it } from 'vitest';
import { paceClassOf } from '../../../main/core/pve/transport';

describe('pace classes', () => {
  it.each([
    ['a clone', { method: 'POST', template: '/nodes/{node}/qemu/{vmid}/clone' }, 'copy'],
    ['a migrate', { method: 'POST', template: '/nodes/{node}/qemu/{vmid}/migrate' }, 'copy'],
    ['a config write', { method: 'PUT', template: '/nodes/{node}/qemu/{vmid}/config' }, 'write'],
    ['a seed upload', { method: 'POST', template: '/nodes/{node}/storage/{storage}/upload' }, 'write'],
    ['a start', { method: 'POST', template: '/nodes/{node}/qemu/{vmid}/status/start' }, 'write'],
    ["a create's lookup", { method: 'GET', template: '/cluster/resources', query: { type: 'vm' } }, 'read'],
    ['a task listing', { method: 'GET', template: '/nodes/{node}/tasks' }, 'read'],
    ['a task status', { method: 'GET', template: '/nodes/{node}/tasks/{upid}/status' }, 'read'],
    ["a create's address (the agent)", { method: 'GET', template: '/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces' }, 'read'],
    ["the inventory's listing", { method: 'GET', template: '/cluster/resources', background: true }, 'poll'],
    ["placement's listing (and a create's lookup, which may use it)", { method: 'GET', template: '/cluster/resources' }, 'read'],
    ["the inventory's mark read", { method: 'GET', template: '/nodes/{node}/qemu/{vmid}/config', background: true }, 'poll'],
  ] as const)('%s is a %s', (_what, exchange, cls) => {
    expect(paceClassOf(exchange)).toBe(cls);
  });
});
