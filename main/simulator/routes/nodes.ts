/** Per-node reads: status (the reconstructed pv1-1 answer), network (network.ts), the task status and log of any task; and stopping a task. */
import { fixtureJson } from '../../../fixtures';
import { WholeBody, type Route, type RouteRequest } from '../context';
import { textError } from '../errors';
import { optBool, optInt, str } from '../params';
import { nodeStatusFor } from '../versions';
import { networkListing } from './network';

const node = str;

/** Task reads need Sys.Audit on the node unless the token owns the task (schema `permissions`). */
function taskOf(req: RouteRequest) {
  const task = req.sim.tasks.get(req.path.upid!);
  if (!task || task.node !== req.path.node) throw textError('taskMissing', 500);
  const owner = task.tokenid ? `${task.user}!${task.tokenid}` : task.user;
  if (owner !== req.tokenId) req.sim.tokens.requireAll(req.tokenId, `/nodes/${task.node}`, ['Sys.Audit']);
  return task;
}

export const nodeRoutes: Route[] = [
  {
    method: 'GET',
    path: '/nodes/{node}/status',
    params: { node },
    check: ({ sim, tokenId, path }) => sim.tokens.requireAll(tokenId, `/nodes/${path.node}`, ['Sys.Audit']),
    handle: ({ sim }) => nodeStatusFor(sim.version, fixtureJson<{ data: Record<string, unknown> }>('node_status')!.data),
  },
  {
    method: 'GET',
    path: '/nodes/{node}/network',
    params: {
      node,
      type: {
        type: 'string',
        optional: true,
        enum: [
          'bridge',
          'bond',
          'eth',
          'alias',
          'vlan',
          'fabric',
          'OVSBridge',
          'OVSBond',
          'OVSPort',
          'OVSIntPort',
          'vnet',
          'any_bridge',
          'any_local_bridge',
          'include_sdn',
        ],
      },
    },
    handle: ({ sim, path, params, tokenId }) => networkListing(sim, path.node!, params.type, tokenId),
  },
  {
    method: 'GET',
    path: '/nodes/{node}/tasks/{upid}/status',
    params: { node, upid: str },
    handle: (req) => {
      const t = taskOf(req);
      const out: Record<string, unknown> = {
        upid: t.upid,
        node: t.node,
        pid: t.pid,
        pstart: t.pstart,
        starttime: t.starttime,
        type: t.type,
        id: t.id,
        user: t.user,
        status: t.status,
      };
      if (t.tokenid) out.tokenid = t.tokenid;
      if (t.exitstatus !== undefined) out.exitstatus = t.exitstatus;
      return out;
    },
  },
  {
    method: 'GET',
    path: '/nodes/{node}/tasks/{upid}/log',
    params: { node, upid: str, start: optInt, limit: optInt, download: optBool },
    handle: (req) => {
      const t = taskOf(req);
      const start = Number(req.params.start ?? 0);
      const limit = Number(req.params.limit ?? 50);
      // pve-common src/PVE/Tools.pm dump_logfile: an empty log answers one placeholder line, "HACK: ExtJS
      // store.guaranteeRange() does not like empty array", numbered 1 like the real first line to come (issue 25).
      if (t.log.length === 0) return new WholeBody({ data: [{ n: 1, t: 'no content' }], total: 1 });
      const lines = t.log.slice(start, start + limit).map((text, i) => ({ n: start + i + 1, t: text }));
      return new WholeBody({ data: lines, total: t.log.length });
    },
  },
  {
    // Stop a task (pve-manager Tasks.pm stop_task): its owner may; anyone else needs Sys.Modify on the node. A task
    // that already ended is left as it is; the answer is null either way.
    method: 'DELETE',
    path: '/nodes/{node}/tasks/{upid}',
    params: { node, upid: str },
    handle: (req) => {
      const task = req.sim.tasks.get(req.path.upid!);
      if (!task || task.node !== req.path.node) throw textError('taskMissing', 500);
      const owner = task.tokenid ? `${task.user}!${task.tokenid}` : task.user;
      if (owner !== req.tokenId) req.sim.tokens.requireAll(req.tokenId, `/nodes/${task.node}`, ['Sys.Modify']);
      req.sim.tasks.stop(task.upid);
      return fixtureJson<{ data: null }>('task_stop_response')!.data;
    },
  },
];
