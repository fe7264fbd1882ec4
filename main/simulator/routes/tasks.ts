/**
 * `GET /nodes/{node}/tasks`: a node's task list, as pve-manager's PVE/API2/Tasks.pm `node_tasks` builds it
 * (read at pve-manager 14a22df3; the same on stable-7 and stable-8):
 *
 * - `source=active` reads the node's `active` file: running tasks get `status: RUNNING` and keep the
 *   UPID's whole user (`user@realm!token`, no `tokenid`: `$convert_token_task` runs only on archive
 *   lines). A task's daemon archives it as soon as its worker exits (pve-common RESTEnvironment.pm
 *   `$worker_reaper` -> `active_workers`), so an ended task is only in the archive here.
 * - `source=archive` (the default) reads the index newest first: `endtime` and the exit status as
 *   `status`, and a token's task split into `user` and `tokenid`. `all` is active, then archive.
 * - Visibility: with `Sys.Audit` on `/nodes/<node>` every task; otherwise `$check_task_user`: a
 *   token sees the tasks its own token id started, a user its own and (archive only) its tokens'.
 * - `userfilter` is a case-insensitive substring of `user` (`$task->{user} !~ m/\Q$userfilter\E/i`), matched after
 *   the archive's split: a whole `user@realm!token` finds that token's running tasks and none it ended (a901f94a,
 *   2020; the filter unchanged since acf8a271, 2021, so on 7.4, 8.x and 9.x alike; issue 25); `typefilter` exact; `vmid` the task's id;
 *   `since`/`until` compare `starttime`; `errors` drops OK; `start` skips, `limit` (default 50) caps.
 */
import { WholeBody, type Route, type RouteRequest } from '../context';
import type { SimTask } from '../tasks';
import { optBool, optInt, optStr, str } from '../params';

interface Listed {
  upid: string;
  node: string;
  pid: number;
  pstart: number;
  starttime: number;
  type: string;
  id: string;
  user: string;
  tokenid?: string;
  endtime?: number;
  status?: string;
}

function fullUser(t: SimTask): string {
  return t.tokenid ? `${t.user}!${t.tokenid}` : t.user;
}

function activeEntry(t: SimTask): Listed {
  return { upid: t.upid, node: t.node, pid: t.pid, pstart: t.pstart, starttime: t.starttime, type: t.type, id: t.id, user: fullUser(t), status: 'RUNNING' };
}

function archiveEntry(t: SimTask): Listed {
  const out: Listed = { upid: t.upid, node: t.node, pid: t.pid, pstart: t.pstart, starttime: t.starttime, type: t.type, id: t.id, user: t.user };
  if (t.tokenid) out.tokenid = t.tokenid;
  if (t.endtime !== undefined) out.endtime = t.endtime;
  if (t.exitstatus !== undefined) out.status = t.exitstatus;
  return out;
}

/** `$check_task_user`: a token sees only its own token's tasks; a user its own and its tokens' (archive lines only). */
function visibleTo(entry: Listed, tokenId: string): boolean {
  if (entry.tokenid) return tokenId === `${entry.user}!${entry.tokenid}` || tokenId === entry.user;
  return tokenId === entry.user;
}

function handle(req: RouteRequest): WholeBody {
  const { sim, path, params, tokenId } = req;
  const node = path.node!;
  const source = params.source ?? 'archive';
  const start = Number(params.start ?? 0);
  let limit = Number(params.limit ?? 50);
  const since = params.since === undefined ? undefined : Number(params.since);
  const until = params.until === undefined ? undefined : Number(params.until);
  const errorsOnly = params.errors === '1' || params.errors === 'true';
  const auditor = sim.tokens.holds(tokenId, `/nodes/${node}`, 'Sys.Audit');
  const mine = [...sim.tasks.tasks.values()].filter((t) => t.node === node);
  let count = 0;
  const res: Listed[] = [];
  const take = (entry: Listed): void => {
    if (params.userfilter && !entry.user.toLowerCase().includes(params.userfilter.toLowerCase())) return;
    if (!auditor && !visibleTo(entry, tokenId)) return;
    if (params.typefilter && entry.type !== params.typefilter) return;
    if (params.vmid && entry.id !== params.vmid) return;
    if (since !== undefined && entry.starttime < since) return;
    if (until !== undefined && entry.starttime > until) return;
    if (errorsOnly && entry.status === 'OK') return;
    if (count++ < start) return;
    if (limit <= 0) return;
    res.push(entry);
    limit--;
  };
  if (source === 'active' || source === 'all') {
    for (const t of mine.filter((t) => t.status === 'running').sort((a, b) => b.starttime - a.starttime)) take(activeEntry(t));
  }
  if (source !== 'active') {
    // The index is appended as tasks end and read backwards: the last to end comes first.
    const ended = mine.filter((t) => t.status === 'stopped').sort((a, b) => (b.simEnd ?? 0) - (a.simEnd ?? 0));
    for (const t of ended) take(archiveEntry(t));
  }
  // `$rpcenv->set_result_attrib('total', $count)`: every match, before start and limit.
  return new WholeBody({ data: res, total: count });
}

export const taskListRoutes: Route[] = [
  {
    method: 'GET',
    path: '/nodes/{node}/tasks',
    params: {
      node: str,
      start: optInt,
      limit: optInt,
      userfilter: optStr,
      typefilter: optStr,
      vmid: optInt,
      errors: optBool,
      source: { type: 'string', optional: true, enum: ['archive', 'active', 'all'] },
      since: optInt,
      until: optInt,
      statusfilter: optStr,
    },
    handle,
  },
];
