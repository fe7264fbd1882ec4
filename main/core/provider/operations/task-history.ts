/**
 * The cluster's own task history of one VM (issue 23): every Proxmox task that
 * touched it, whoever started it (the Proxmox UI, the operator, a backup job,
 * this app), read from each online node's task index (`GET /nodes/{node}/tasks
 * ?vmid=&source=all&limit=`, pve-manager API2/Tasks.pm node_tasks), since a task
 * stays listed on the node it ran on and the VM may have lived on another.
 * Bounded: at most `limit` tasks per node and in all; a task's log is read a
 * page at a time (`…/tasks/{upid}/log?start=&limit=`). Proxmox shows another
 * user's tasks only with Sys.Audit on /nodes/<node>, which the guide's role holds.
 */
import { parseUpid } from '../../pve/upid';
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { notFound, permanent } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import { notTheOne } from '../cluster/ownership';
import { resolveVm } from '../cluster/resources';
import { goneError, readConfigOrGone } from '../cluster/vm-lookup';

export const HISTORY_LIMIT = { default: 50, max: 200 } as const;
export const LOG_PAGE = { default: 200, max: 1000 } as const;

export interface HistoryTask {
  upid: string;
  node: string;
  /** Proxmox's task type (`qmstart`, `qmclone`, `vzdump`, …). */
  type: string;
  /** `user@realm`, with `!tokenid` for a token's task. */
  user: string;
  /** Seconds since the epoch. */
  starttime: number;
  endtime?: number;
  /** `RUNNING`, `OK`, `WARNINGS: n`, or the error text. */
  status: string;
}

export interface TaskHistory {
  vmid: number;
  /** Newest first, at most the limit. */
  tasks: HistoryTask[];
  /** Nodes whose list was not read, and why (offline, refused): the history may miss tasks that ran there. */
  unread: { node: string; reason: string }[];
  /** True when some node had more tasks than the limit. */
  truncated: boolean;
}

export interface TaskHistoryOptions extends CallOptions {
  limit?: number;
}

const bounded = (n: number | undefined, bound: { default: number; max: number }) =>
  Math.max(1, Math.min(bound.max, Math.floor(n ?? bound.default)));

export async function taskHistoryOf(ctx: CoreContext, id: string, options: TaskHistoryOptions = {}): Promise<TaskHistory> {
  try {
    const { vmid, name } = parseProviderId(id);
    const limit = bounded(options.limit, HISTORY_LIMIT);
    const r = await resolveVm(ctx, vmid, options);
    if (!r?.node) throw goneError(vmid);
    const config = await readConfigOrGone(ctx, r.node, vmid, options.signal);
    if (config.name !== name) throw notFound(notTheOne(vmid, config, { name }) ?? `VM ${vmid} is not ${name}`);
    const nodes = await ctx.api.nodes({ signal: options.signal });
    const unread: TaskHistory['unread'] = [];
    let truncated = false;
    const lists = await Promise.all(
      nodes.map(async (n) => {
        if (n.status !== 'online') {
          unread.push({ node: n.node, reason: `the node is ${n.status}` });
          return [];
        }
        if (!ctx.api.nodeTasks) return [];
        try {
          // One more than the limit tells a longer history from one that fits.
          const listed = await ctx.api.nodeTasks(n.node, { source: 'all', vmid, limit: limit + 1 }, { signal: options.signal });
          if (listed.length > limit) truncated = true;
          return listed.slice(0, limit).map((t) => entryOf(t, n.node));
        } catch (e) {
          options.signal?.throwIfAborted();
          unread.push({ node: n.node, reason: toProviderError('task-history', e).message });
          return [];
        }
      }),
    );
    const tasks = lists
      .flat()
      .sort(newestFirst)
      .slice(0, limit);
    if (lists.flat().length > limit) truncated = true;
    return { vmid, tasks, unread: unread.sort((a, b) => a.node.localeCompare(b.node)), truncated };
  } catch (e) {
    throw toProviderError('task-history', e, id);
  }
}

/** Newest start first; within one second (starttime has no finer grain), a running or later-ended task first. */
function newestFirst(a: HistoryTask, b: HistoryTask): number {
  return b.starttime - a.starttime || (b.endtime ?? Infinity) - (a.endtime ?? Infinity) || (a.upid < b.upid ? 1 : -1);
}

function entryOf(t: { upid: string; node?: string; type?: string; user?: string; tokenid?: string; starttime?: number; endtime?: number; status?: string }, node: string): HistoryTask {
  const parsed = safeUpid(t.upid);
  // The archive splits a token's task into user and tokenid (Tasks.pm $convert_token_task); the active list does not.
  const user = t.user && t.tokenid && !t.user.includes('!') ? `${t.user}!${t.tokenid}` : (t.user ?? parsed?.user ?? '');
  return {
    upid: t.upid,
    node: t.node ?? parsed?.node ?? node,
    type: t.type ?? parsed?.type ?? '',
    user,
    starttime: t.starttime ?? parsed?.starttime ?? 0,
    ...(t.endtime !== undefined ? { endtime: t.endtime } : {}),
    status: t.status ?? (t.endtime === undefined ? 'RUNNING' : ''),
  };
}

function safeUpid(upid: string) {
  try {
    return parseUpid(upid);
  } catch {
    return undefined;
  }
}

export interface TaskLogPage {
  lines: { n: number; t: string }[];
  total: number;
}

/** One page of a task's log; only a task of this VM (its UPID's id), on the node its UPID names. */
export async function historyLogOf(
  ctx: CoreContext,
  vmid: number,
  upid: string,
  range: { start?: number; limit?: number } = {},
  options: CallOptions = {},
): Promise<TaskLogPage> {
  try {
    const parsed = safeUpid(upid);
    if (!parsed) throw permanent(`"${upid.slice(0, 80)}" is not a Proxmox task id`, 'Pick the task again from the list.');
    if (parsed.id !== String(vmid)) throw permanent(`task ${upid} is not one of VM ${vmid}'s`, 'Pick the task again from the list.');
    const log = await ctx.api.taskLog(
      parsed.node,
      upid,
      { start: Math.max(0, Math.floor(range.start ?? 0)), limit: bounded(range.limit, LOG_PAGE) },
      { signal: options.signal },
    );
    return { lines: log.lines, total: log.total };
  } catch (e) {
    throw toProviderError('task-history', e);
  }
}
