/** Cluster-wide reads: version, nodes, cluster status and resources, permissions. */
import { fixtureJson } from '../../../fixtures';
import type { Route } from '../context';
import { optStr } from '../params';
import { nodeResource, storageResource, vmResource } from '../views';
import type { VersionProfile } from '../versions';

/** `memhost` exists from 9.0 on (versions.ts). */
function withoutMemhost(version: VersionProfile, entry: Record<string, unknown>): Record<string, unknown> {
  if (version.memhost) return entry;
  const { memhost: _memhost, ...rest } = entry;
  return rest;
}

export const clusterRoutes: Route[] = [
  // The captured 9.2 answer's key order, this cluster's release (versions.ts).
  {
    method: 'GET',
    path: '/version',
    params: {},
    handle: ({ sim }) => ({ ...fixtureJson<{ data: object }>('version')!.data, ...sim.version.version }),
  },
  {
    method: 'GET',
    path: '/nodes',
    params: {},
    handle: ({ sim }) =>
      [...sim.state.nodes.values()].map((n) => {
        const { id: _id, type: _type, ...rest } = nodeResource(n);
        return { ...rest, ssl_fingerprint: sim.fingerprint };
      }),
  },
  {
    method: 'GET',
    path: '/cluster/status',
    params: {},
    check: ({ sim, tokenId }) => sim.tokens.requireAll(tokenId, '/', ['Sys.Audit']),
    handle: ({ sim }) => {
      const nodes = [...sim.state.nodes.values()];
      const entries: Record<string, unknown>[] = nodes.map((n, i) => ({
        type: 'node',
        id: `node/${n.node}`,
        name: n.node,
        nodeid: i + 1,
        ip: `192.168.0.${8 + i}`,
        online: n.online ? 1 : 0,
        local: i === 0 ? 1 : 0,
        level: '',
      }));
      if (sim.state.clusterName)
        entries.unshift({
          type: 'cluster',
          id: 'cluster',
          name: sim.state.clusterName,
          nodes: nodes.length,
          quorate: 1,
          version: nodes.length,
        });
      return entries;
    },
  },
  {
    method: 'GET',
    path: '/cluster/resources',
    params: { type: { type: 'string', optional: true, enum: ['vm', 'storage', 'node', 'sdn'] } },
    handle: ({ sim, params, tokenId }) => {
      const { state, tokens } = sim;
      const now = sim.clock.now();
      const out: Record<string, unknown>[] = [];
      const want = params.type;
      if (!want || want === 'node')
        for (const n of state.nodes.values()) if (tokens.holds(tokenId, `/nodes/${n.node}`, 'Sys.Audit')) out.push(nodeResource(n));
      if (!want || want === 'vm')
        for (const vm of state.vms.values())
          if (tokens.holds(tokenId, `/vms/${vm.vmid}`, 'VM.Audit'))
            out.push(withoutMemhost(sim.version, vmResource(vm, state.node(vm.node), now)));
      if (!want || want === 'storage')
        for (const n of state.nodes.values())
          for (const s of n.storages.values())
            if (tokens.holds(tokenId, `/storage/${s.storage}`, 'Datastore.Audit')) out.push(storageResource(n, s));
      return out;
    },
  },
  {
    method: 'GET',
    path: '/access/permissions',
    params: { path: optStr, userid: optStr },
    handle: ({ sim, params, tokenId }) => {
      const paths = params.path ? [params.path] : Object.keys(sim.tokens.grants(tokenId));
      return Object.fromEntries(paths.map((p) => [p, Object.fromEntries([...sim.tokens.privileges(tokenId, p)].map((priv) => [priv, 1]))]));
    },
  },
];
