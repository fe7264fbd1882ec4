/**
 * The task log follower against the simulator over real HTTPS, with the app's client pace
 * (main/services/clusters/client-policy.ts).
 *
 * Issue 25: a new task's log is empty, and Proxmox answers its placeholder `{n: 1, t: "no content"}`; the follower
 * shows no such line and does not skip the real first line, numbered 1 too.
 * Issue 22: a log that always answers a full page (a long log, or a node that answers the same page again) is read at
 * the node's pace at most, only while the step runs and is watched, and once more for the tail after the end,
 * bounded. Counted in requests the simulator answered, never timed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { APP_CLIENT_PACE } from '../../../../main/services/clusters/client-policy';
import { followUpidLog, type LogLine } from '../../../../main/services/tasks/log-follower';
import type { SimTask } from '../../../../main/simulator';
import { startSimCluster, type SimCluster } from '../../../support/sim-cluster';
import { until } from '../../../support/until';

const LOG = '/nodes/{node}/tasks/{upid}/log';
const log = createLogger({ sinks: [] });
/** The pace's bound on sends over `ms` from a standing start: 3 per window of 1,050 ms (1,000 + the 50 ms guard). */
const paceBound = (ms: number) => 3 * (Math.floor(ms / 1050) + 1);

let t: SimCluster | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A task that runs until `end()` is called; its log is what the test writes. */
function runningTask(sim: SimCluster['sim']): { task: SimTask; end: () => void } {
  let end!: () => void;
  const done = new Promise<void>((r) => (end = r));
  const task = sim.tasks.start('pv1-1', 'qmstart', 100, { tokenId: sim.tokens.admin!.tokenId }, () => done);
  return { task, end };
}

const logReads = (c: SimCluster) => c.sim.requests.count({ route: LOG });

describe('task log follower', () => {
  it('shows no placeholder for a new task’s empty log and does not skip its real first line (issue 25)', async () => {
    t = await startSimCluster({ dataset: 'minimal', client: { pace: APP_CLIENT_PACE } });
    const { task, end } = runningTask(t.sim);
    let live = true;
    const shown: LogLine[] = [];
    const following = followUpidLog({
      api: t.client,
      upid: task.upid,
      intervalMs: 20,
      live: () => live,
      signal: new AbortController().signal,
      onLines: (lines) => shown.push(...lines),
      log,
    });
    // Proxmox answers the placeholder while the log is empty; the follower reads it at least twice.
    await until(() => logReads(t!) >= 2, 10_000, 5);
    task.log.push('starting VM 100');
    end();
    await until(() => task.status === 'stopped', 10_000, 5);
    live = false;
    const kept = await following;
    expect(shown.map((l) => l.t)).toEqual(['starting VM 100', 'TASK OK']);
    expect(kept.map((l) => l.n)).toEqual([1, 2]);
  });

  it('reads a log that always answers a full page at the node’s pace, and stops at the step’s end (issue 22)', async () => {
    t = await startSimCluster({ dataset: 'minimal', client: { pace: APP_CLIENT_PACE } });
    const { task, end } = runningTask(t.sim);
    // 400 pages: every read the follower makes gets a full page of new lines.
    for (let i = 0; i < 200_000; i++) task.log.push(`transferred ${i} MiB`);
    let live = true;
    const controller = new AbortController();
    const started = Date.now();
    const following = followUpidLog({
      api: t.client,
      upid: task.upid,
      // Far shorter than the app's 1 s: the pace, not the interval, is what bounds the reads.
      intervalMs: 20,
      live: () => live,
      signal: controller.signal,
      onLines: () => undefined,
      log,
    });
    await new Promise((r) => setTimeout(r, 2300));
    const whileRunning = logReads(t);
    expect(whileRunning).toBeGreaterThan(0);
    expect(whileRunning).toBeLessThanOrEqual(paceBound(Date.now() - started));
    // The task succeeds and the step ends: at most the page in flight, then one bounded last read (4 pages).
    end();
    await until(() => task.status === 'stopped', 10_000, 5);
    live = false;
    const atEnd = logReads(t);
    await following;
    const afterEnd = logReads(t) - atEnd;
    expect(afterEnd).toBeLessThanOrEqual(1 + 4);
    // And then nothing: the follower has ended.
    await new Promise((r) => setTimeout(r, 500));
    expect(logReads(t) - atEnd).toBe(afterEnd);
    controller.abort();
  });

  it('reads no more once nobody watches, even while the log keeps answering full pages (issue 22)', async () => {
    t = await startSimCluster({ dataset: 'minimal', client: { pace: APP_CLIENT_PACE } });
    const { task } = runningTask(t.sim);
    for (let i = 0; i < 200_000; i++) task.log.push(`line ${i}`);
    let watched = true;
    const following = followUpidLog({
      api: t.client,
      upid: task.upid,
      intervalMs: 1000,
      live: () => true,
      watched: () => watched,
      signal: new AbortController().signal,
      onLines: () => undefined,
      log,
    });
    await until(() => logReads(t!) >= 1, 10_000, 5);
    watched = false;
    const atUnwatch = logReads(t);
    await following;
    // The page in flight when the watch ended; no last read (the step still runs: nobody needs its tail).
    expect(logReads(t) - atUnwatch).toBeLessThanOrEqual(1);
  });

  it('a node that answers the same full page again brings nothing new: the reading stops (issue 22)', async () => {
    t = await startSimCluster({ dataset: 'minimal', client: { pace: APP_CLIENT_PACE } });
    const { task, end } = runningTask(t.sim);
    const page = Array.from({ length: 500 }, (_, i) => ({ n: i + 1, t: `line ${i + 1}` }));
    t.sim.faults.inject({ route: LOG }, { kind: 'answer', body: { data: page, total: 500 } });
    let live = true;
    const shown: LogLine[] = [];
    const following = followUpidLog({
      api: t.client,
      upid: task.upid,
      intervalMs: 1000,
      live: () => live,
      signal: new AbortController().signal,
      onLines: (lines) => shown.push(...lines),
      log,
    });
    await until(() => logReads(t!) >= 2, 10_000, 5);
    end();
    live = false;
    await following;
    // One page of new lines, then the same page again (nothing new): no paging on, and one last read at the end.
    expect(shown).toHaveLength(500);
    expect(logReads(t)).toBeLessThanOrEqual(4);
  });
});
