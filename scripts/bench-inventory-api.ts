/**
 * What bench-inventory.ts and bench-restart.ts share: a clock moved by hand,
 * and a PveApi over a simulated state in memory (the simulator's own answer
 * shapes, no TLS, no sockets), so the CPU measured is the app's.
 */
import { AgentNetworkSchema, ClusterResourcesSchema, parseProfile, type PveApi, VmConfigSchema } from '../main/core';
import type { Timers } from '../main/services/polling/timers';
import type { ClusterState } from '../main/simulator/state';
import type { SimClock } from '../main/simulator/clock';
import { nodeResource, storageResource, vmResource } from '../main/simulator/views';

/** The two-node profile the inventory benches list (bench-inventory.ts, bench-restart.ts). */
export const benchProfile = parseProfile({
  url: 'https://127.0.0.1:8006',
  nodes: ['pve1', 'pve2'],
  isoStorage: 'proxy-seeds',
  templates: { t: { vmid: 9001 } },
  machineTypes: { s: { cores: 1, memoryMiB: 1024 } },
  tls: { mode: 'insecure' },
  token: { kind: 'secret', tokenId: 'a@pve!b' },
});

export function manualTimers() {
  let now = 0;
  const due: { at: number; fn: () => void }[] = [];
  const timers: Timers = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const t = { at: now + ms, fn };
      due.push(t);
      return t;
    },
    clearTimeout: (h) => {
      const i = due.indexOf(h as (typeof due)[number]);
      if (i >= 0) due.splice(i, 1);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const t of due.filter((d) => d.at <= now)) {
      due.splice(due.indexOf(t), 1);
      t.fn();
    }
  };
  return { timers, advance };
}

/** A PveApi over a simulated state in memory: each listing is serialised and parsed like a real answer. */
export interface RequestCounter {
  requests: number;
  /** By kind, when asked for (bench-restart.ts). */
  kinds?: { listing: number; config: number; agent: number };
}

export function memoryApi(state: ClusterState, clock: SimClock, counter: RequestCounter): PveApi {
  const answer = <T>(schema: { parse(v: unknown): T }, value: unknown, kind: 'config' | 'agent'): Promise<T> => {
    counter.requests++;
    if (counter.kinds) counter.kinds[kind]++;
    return Promise.resolve(schema.parse(JSON.parse(JSON.stringify(value))));
  };
  // The listing's body is built once, as the bytes off the wire would be; parsing it is the app's work.
  const out: unknown[] = [];
  for (const n of state.nodes.values()) out.push(nodeResource(n));
  for (const vm of state.vms.values()) out.push(vmResource(vm, state.node(vm.node), clock.now()));
  for (const n of state.nodes.values()) for (const s of n.storages.values()) out.push(storageResource(n, s));
  const listingBody = JSON.stringify(out);
  const api: Partial<PveApi> = {
    clusterResources: () => {
      counter.requests++;
      if (counter.kinds) counter.kinds.listing++;
      return Promise.resolve(ClusterResourcesSchema.parse(JSON.parse(listingBody)));
    },
    vmConfig: (_node, vmid) => answer(VmConfigSchema, state.vm(vmid)!.config, 'config'),
    agentNetworkInterfaces: (_node, vmid) =>
      answer(
        AgentNetworkSchema,
        {
          result: [
            { name: 'eth0', 'ip-addresses': [{ 'ip-address': `10.0.${vmid % 250}.${vmid % 200}`, 'ip-address-type': 'ipv4', prefix: 24 }] },
          ],
        },
        'agent',
      ),
  };
  return api as PveApi;
}
