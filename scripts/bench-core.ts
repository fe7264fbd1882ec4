/**
 * How long a create takes over what Proxmox itself spends: the time its
 * tasks (clone, upload, resize, start) run, counted once where two run at
 * once (the seed's upload runs beside the clone: seed-beside-clone.ts), plus
 * the wait for `running`, for our adaptive poll and for a fixed one-second
 * poll (the Go provider's).
 *
 * Realistic durations (clone 3 s, upload 1 s, resize 1 s, start 1 s), each
 * jittered by a seeded ±40 % per repetition, so a one-second poll is not
 * lined up with task ends by accident. Both polls see the same durations,
 * each on its own simulator, side by side.
 *
 * Run: npx tsx scripts/bench-core.ts [repetitions=3] [seed=1]
 * BENCH_TIMELINE=1: each create's (but the fixed poll's) requests and tasks in time order (s from its start), to see where it waits.
 */
import { type Budgets, defaultBudgets, type PaceOptions } from '../main/core';
import type { TaskKind } from '../main/simulator';
import { APP_CLIENT_PACE } from '../main/services/clusters/client-policy';
import { simProvider } from '../test/integration/core/sim-provider';

const BASE: Partial<Record<TaskKind, number>> = { qmclone: 3000, imgcopy: 1000, resize: 1000, qmstart: 1000 };
const JITTER = 0.4;
const TASKS_PER_CREATE = Object.keys(BASE).length;

/**
 * `learned`: the app as it runs, one client per cluster with the app's pace (services/clusters/client-policy.ts: engaged
 * only while creates overlap, so never for these one-at-a-time creates): the first create on a node learns the task
 * durations (`cold`, no history), the next ones use them (`learning`, then `learned`: see CREATES). `fixed-1s`: the Go provider's poll, one status
 * call per task per second, for comparison (youngPollMs 500 makes the no-history cadence 1 s; it never
 * learns because each create gets a fresh client).
 */
const polls: Record<string, Partial<Budgets>> = {
  learned: defaultBudgets,
  'fixed-1s': { ...defaultBudgets, youngPollMs: 500, youngForMs: 0, oldPollMs: 1000 },
};
/**
 * Creates per repetition on one client: the first is cold; the second and third are still learning (their model
 * comes from the cold create's looks, 500 ms apart, so it knows each duration only to about ±250 ms, and each create's
 * looks halve that); from the fourth on the durations are learned: the goal's row (issue 21).
 */
const CREATES = 6;
const LEARNING = 2;
const phaseOf = (i: number) => (i === 0 ? 'cold' : i <= LEARNING ? 'learning' : 'learned');

/** mulberry32: a small seeded generator, so a run can be repeated exactly. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sample {
  createMs: number;
  proxmoxMs: number;
  /** Task listings and task status calls: every request that asks a task's state. */
  taskPolls: number;
  statusPolls: number;
  /** Config reads (the template check; the clone read back only when net0 is rewritten). */
  configReads: number;
}

/** A simulator with these durations and a provider over it, connection warmed: the app's client has talked to the cluster before it creates. */
async function prepare(budgets: Partial<Budgets>, durations: Partial<Record<TaskKind, number>>, pace: PaceOptions | false) {
  const env = await simProvider({ timeScale: 1, taskDurations: durations, agentDelayMs: 0, budgets, client: { pace } });
  await env.client.version();
  env.sim.requests.clear();
  return { env, durations };
}

function printTimeline(env: Awaited<ReturnType<typeof prepare>>['env'], simFrom: number, rep: number, createMs: number): void {
  // The simulator's clock runs at timeScale 1 from simFrom, which is when the create began.
  const epoch = Date.now() - (env.sim.clock.now() - simFrom);
  const lines: Array<[number, string]> = [];
  for (const r of env.sim.requests.records) lines.push([((r.at ?? 0) - epoch) / 1000, `req  ${r.method} ${r.route}`]);
  for (const t of env.sim.tasks.tasks.values())
    if (t.simStart >= simFrom)
      lines.push([(t.simStart - simFrom) / 1000, `task ${t.type} until ${(((t.simEnd ?? simFrom) - simFrom) / 1000).toFixed(3)}`]);
  console.log(`create ${rep}: ${(createMs / 1000).toFixed(3)} s`);
  for (const [at, what] of lines.sort((a, b) => a[0] - b[0])) console.log(`  ${at.toFixed(3).padStart(7)}  ${what}`);
}

async function createOnce({ env }: Awaited<ReturnType<typeof prepare>>, rep: number, label: string): Promise<Sample> {
  env.sim.requests.clear();
  const simFrom = env.sim.clock.now();
  const started = performance.now();
  // One operation, as the task manager's create runner marks it: alone, so the app's pace (engaged only while
  // creates overlap, pace.ts 'under-load') holds none of its requests.
  const end = env.client.beginOperation();
  try {
    await env.provider.create({
      uid: `bench-${rep}`,
      name: `proxy-bench-${rep}`,
      // `big` grows the disk, so the resize task runs as in a real create.
      placement: { machineType: 'big', image: 'debian-13' },
      cloudInit: '#cloud-config\n',
    });
  } finally {
    end();
  }
  const createMs = performance.now() - started;
  if (process.env.BENCH_TIMELINE && label !== 'fixed-1s') printTimeline(env, simFrom, rep, createMs);
  const routes = env.sim.requests.records.map((r) => r.route);
  return {
    createMs,
    // The simulator reports running the moment the start task ends, so the running wait is Proxmox's zero.
    proxmoxMs: busyMs([...env.sim.tasks.tasks.values()].filter((t) => t.simStart >= simFrom)),
    taskPolls: routes.filter((r) => r === '/nodes/{node}/tasks/{upid}/status' || r === '/nodes/{node}/tasks').length,
    statusPolls: routes.filter((r) => r === '/nodes/{node}/qemu/{vmid}/status/current').length,
    configReads: env.sim.requests.records.filter((r) => r.method === 'GET' && r.route === '/nodes/{node}/qemu/{vmid}/config').length,
  };
}

/** How long at least one of the tasks ran (ms of simulated time, timeScale 1): their intervals' union. */
function busyMs(tasks: { simStart: number; simEnd?: number }[]): number {
  const spans = tasks.map((t) => [t.simStart, t.simEnd ?? t.simStart] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let [from, to] = spans[0] ?? [0, 0];
  for (const [a, b] of spans.slice(1)) {
    if (a > to) {
      total += to - from;
      [from, to] = [a, b];
    } else to = Math.max(to, b);
  }
  return total + (to - from);
}

function jittered(random: () => number): Partial<Record<TaskKind, number>> {
  return Object.fromEntries(Object.entries(BASE).map(([k, ms]) => [k, Math.round(ms * (1 + JITTER * (2 * random() - 1)))]));
}

/** One untimed create at a fast time scale, so the timed ones do not pay for the first run of the code. */
async function warmUp(): Promise<void> {
  const env = await simProvider({ timeScale: 0.001, agentDelayMs: 0 });
  try {
    await env.provider.create({
      uid: 'warm-up',
      name: 'proxy-warm-up',
      placement: { machineType: 'big', image: 'debian-13' },
      cloudInit: '#cloud-config\n',
    });
  } finally {
    await env.close();
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function summarise(label: string, samples: Sample[]): string {
  const n = samples.length;
  const ratio = sum(samples.map((s) => s.createMs)) / sum(samples.map((s) => s.proxmoxMs));
  const worst = Math.max(...samples.map((s) => s.createMs / s.proxmoxMs));
  const taskPolls = sum(samples.map((s) => s.taskPolls)) / n;
  return [
    label.padEnd(9),
    `create ${(sum(samples.map((s) => s.createMs)) / n / 1000).toFixed(2)} s`,
    `over Proxmox ${(sum(samples.map((s) => s.proxmoxMs)) / n / 1000).toFixed(2)} s`,
    `ratio ${ratio.toFixed(3)} (worst ${worst.toFixed(3)})`,
    `task polls/create ${taskPolls.toFixed(1)}`,
    `per task ${(taskPolls / TASKS_PER_CREATE).toFixed(1)}`,
    `status/current per create ${(sum(samples.map((s) => s.statusPolls)) / n).toFixed(1)}`,
    `config reads per create ${(sum(samples.map((s) => s.configReads)) / n).toFixed(1)}`,
  ].join('  ');
}

async function main(): Promise<void> {
  const repetitions = Math.max(1, Number(process.argv[2] ?? 3));
  const seed = Number(process.argv[3] ?? 1);
  const random = seeded(seed);
  const labels = ['cold', 'learning', 'learned', 'fixed-1s'];
  const samples: Record<string, Sample[]> = Object.fromEntries(labels.map((k) => [k, []]));
  console.log(`bench-core: ${repetitions} repetition(s), seed ${seed}, task durations ±${JITTER * 100} % around ${JSON.stringify(BASE)}`);
  await warmUp();
  // Repetitions one after another; within one, each poll on its own simulator at the same time (they share no state).
  for (let rep = 0; rep < repetitions; rep++) {
    const durations = jittered(random);
    const learned = await prepare(polls.learned!, durations, APP_CLIENT_PACE);
    try {
      await Promise.all([
        (async () => {
          for (let i = 0; i < CREATES; i++) {
            const label = phaseOf(i);
            samples[label]!.push(await createOnce(learned, rep * CREATES + i, label));
          }
        })(),
        (async () => {
          // A fresh client per create: the fixed poll never learns.
          for (let i = 0; i < CREATES; i++) {
            const fixed = await prepare(polls['fixed-1s']!, durations, false);
            try {
              samples['fixed-1s']!.push(await createOnce(fixed, rep * CREATES + i, 'fixed-1s'));
            } finally {
              await fixed.env.close();
            }
          }
        })(),
      ]);
    } finally {
      await learned.env.close();
    }
  }
  for (const label of labels) console.log(summarise(label, samples[label]!));
}

await main();
