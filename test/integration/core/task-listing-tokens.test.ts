/**
 * Issue 25 item 5: pve-manager PVE/API2/Tasks.pm node_tasks (unchanged in this part since acf8a271, 2021: 7.4, 8.x and
 * 9.x alike) filters `userfilter` against `$task->{user}` AFTER `$convert_token_task` split an archived token task's
 * `user@realm!token` into `user` and `tokenid`; active tasks keep the whole token id. So a filter naming the whole token
 * id finds a token's running tasks and never its ended ones, and a watcher that filtered so would settle every ended
 * task by the fallback status read. The watcher filters with the user part; on each version profile its waits end from
 * the listing alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskWatcher } from '../../../main/core/provider/calls/task-watcher';
import { type PveVersion } from '../../../main/simulator';
import { simProvider, TEMPLATE_VMID, type SimProvider } from './sim-provider';

const LIST = '/nodes/{node}/tasks';
const STATUS = '/nodes/{node}/tasks/{upid}/status';
const schedule = { youngPollMs: 5, youngForMs: 100, oldPollMs: 20 };

describe.each(['7.4', '8.4', '9.2'] as const)('Proxmox VE %s', (version: PveVersion) => {
  let env: SimProvider;
  let vmid = 720;
  beforeAll(async () => {
    env = await simProvider({ timeScale: 0.001, taskDurations: { qmclone: 100_000 }, agentDelayMs: 0, version });
  });
  afterAll(async () => env?.close());

  const clone = () => env.client.clone('pv1-1', TEMPLATE_VMID, { newid: vmid, name: `proxy-t${vmid++}`, description: 'x', full: 1 });

  it('the simulator: a whole token id as userfilter finds the running task, not the ended one; the user part finds both', async () => {
    const tokenId = env.sim.tokens.operator!.tokenId;
    const user = tokenId.split('!')[0]!;
    const running = await clone();
    const list = (userfilter: string) => env.client.nodeTasks!('pv1-1', { source: 'all', since: 0, limit: 500, userfilter });
    expect((await list(tokenId)).map((t) => t.upid)).toContain(running);
    const watcher = new TaskWatcher(env.client);
    await watcher.wait(running, { budgetMs: 10_000, what: running, schedule });
    expect((await list(tokenId)).map((t) => t.upid)).not.toContain(running);
    const ended = (await list(user)).find((t) => t.upid === running);
    // The archive's entry: the token split off into tokenid.
    expect(ended).toMatchObject({ user, tokenid: tokenId.split('!')[1], status: 'OK' });
  });

  it('the watcher filters with the user part: ended token tasks settle from the listing, no status reads', async () => {
    const upids = [await clone(), await clone(), await clone()];
    env.sim.requests.clear();
    const watcher = new TaskWatcher(env.client);
    const exits = await Promise.all(upids.map((upid) => watcher.wait(upid, { budgetMs: 10_000, what: upid, schedule })));
    expect(exits).toEqual(['OK', 'OK', 'OK']);
    const lists = env.sim.requests.records.filter((r) => r.route === LIST);
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((r) => r.query.userfilter === undefined || r.query.userfilter === env.sim.tokens.operator!.tokenId.split('!')[0])).toBe(true);
    expect(env.sim.requests.records.filter((r) => r.route === STATUS)).toEqual([]);
  });
});
