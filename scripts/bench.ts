/**
 * `npm run bench`: every benchmark in turn, each in its own process (so one
 * does not warm or load the next), its figures read from what it prints and
 * shown as a ratio to its goal (under 1 meets it), then docs/performance.md
 * written with the machine, the date, the figures and how to rerun each.
 * Asserts nothing: a slow machine gives slow numbers, said as such.
 *
 *   npx tsx scripts/bench.ts [only=core,bulk,...] [--write-rows]
 *
 * A partial run prints and leaves docs/performance.md; with --write-rows it
 * rewrites only its benchmarks' rows there (scripts/bench-doc-merge.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_REQUESTS_PER_NODE } from '../main/core';
import { MODEL, READING } from './bench-notes';
import { mergeRows } from './bench-doc-merge';
import { restartBench } from './bench-restart-figures';

const root = join(import.meta.dirname, '..');

interface Figure {
  figure: string;
  value: string;
  goal: string;
  /** value over goal; undefined where there is no goal. */
  ratio?: number;
}

interface Bench {
  name: string;
  /** What `npm run bench:<name>` runs. */
  command: string[];
  what: string;
  figures(out: string): Figure[];
}

const num = (re: RegExp, text: string): number | undefined => {
  const m = re.exec(text);
  return m ? Number(m[1]!.replace(/,/g, '')) : undefined;
};
const fmt = (x: number | undefined, unit = '') => (x === undefined ? 'not found' : `${x}${unit}`);
const over = (x: number | undefined, goal: number) => (x === undefined ? undefined : x / goal);

const benches: Bench[] = [
  {
    name: 'core',
    command: ['tsx', 'scripts/bench-core.ts', '3'],
    what: "One create (clone 3 s, upload 1 s, resize 1 s, start 1 s, each ±40 %), six on one client per repetition: wall time over Proxmox task time (the time its tasks run, counted once where two run at once: the seed goes up beside the clone) and task-state requests, with no history (cold, the first), while learning (the second and third, whose model comes from the cold looks 500 ms apart), with learned durations (the fourth on: issue 21's goal), and a fixed 1 s poll.",
    figures(out) {
      const learned = num(/^learned.*?ratio ([\d.]+)/m, out);
      const learning = num(/^learning.*?ratio ([\d.]+)/m, out);
      const cold = num(/^cold.*?ratio ([\d.]+)/m, out);
      const fixed = num(/^fixed-1s.*?ratio ([\d.]+)/m, out);
      const polls = num(/^learned.*?task polls\/create ([\d.]+)/m, out);
      const learningPolls = num(/^learning.*?task polls\/create ([\d.]+)/m, out);
      const coldPolls = num(/^cold.*?task polls\/create ([\d.]+)/m, out);
      // Issue 21's goals (issue 11's were 1.10 and 12).
      return [
        { figure: 'create wall / Proxmox time (learned durations)', value: fmt(learned), goal: '<= 1.05', ratio: over(learned, 1.05) },
        { figure: 'task-state requests per create (learned)', value: fmt(polls), goal: '<= 6', ratio: over(polls, 6) },
        { figure: 'create wall / Proxmox time (learning: 2nd and 3rd create)', value: fmt(learning), goal: 'report', ratio: undefined },
        { figure: 'task-state requests per create (learning)', value: fmt(learningPolls), goal: 'report', ratio: undefined },
        { figure: 'create wall / Proxmox time (no history yet)', value: fmt(cold), goal: 'report', ratio: undefined },
        { figure: 'task-state requests per create (no history yet)', value: fmt(coldPolls), goal: 'report', ratio: undefined },
        { figure: 'create wall / Proxmox time (fixed 1 s poll, the Go way)', value: fmt(fixed), goal: 'comparison', ratio: undefined },
      ];
    },
  },
  {
    name: 'bulk',
    command: ['tsx', 'scripts/bench-bulk.ts', '20', '1'],
    what: "Issue 11's bulk: 20 proxies (createProxies, automatic placement) through the task manager over 3 nodes, each with its own local-lvm (450 MB/s) and its own template copy; clone and upload times from the simulator's physics, the guest agent answering 50 s after start (F21), the inventory beside it as in the app, the client as the app builds it (main/services/clusters/client-policy.ts: the pace of 3 requests per node per second engaged while creates overlap, and calls that name no node counted against the node the URL reaches, which the client learns from /cluster/status), timeScale 1 (real time). The wall ends when the last proxy has its address; the floor is the model's physical one (bytes over bandwidth, plus start and boot).",
    figures(out) {
      const wall =
        /wall to the last address ([\d.]+) s simulated .*?Proxmox's part of every create done at ([\d.]+) s\); floor ([\d.]+) s; ratio ([\d.]+)/.exec(
          out,
        );
      const wallS = wall ? Number(wall[1]) : undefined;
      const proxmoxS = wall ? Number(wall[2]) : undefined;
      const floorS = wall ? Number(wall[3]) : undefined;
      const ratio = wall ? Number(wall[4]) : undefined;
      const rps = [...out.matchAll(/^requests\/s on (\S+) at pveproxy \(1 s buckets\): mean ([\d.]+), peak (\d+)/gm)].map((m) => ({
        node: m[1]!,
        mean: Number(m[2]),
        peak: Number(m[3]),
      }));
      const peakRps = rps.length ? Math.max(...rps.map((r) => r.peak)) : undefined;
      const meanRps = rps.length ? Math.max(...rps.map((r) => r.mean)) : undefined;
      const busiest = rps.length ? [...rps].sort((a, b) => b.mean - a.mean)[0]!.node : undefined;
      const copies = /most copies at once per storage \(simulator flows\) .*?; limit (\d+): \w+ \(most (\d+)\)/.exec(out);
      const copyLimit = copies ? Number(copies[1]) : undefined;
      const mostCopies = copies ? Number(copies[2]) : undefined;
      const taskState = num(/^task-state requests per create ([\d.]+)/m, out);
      const perCreate = num(/^task-state requests per create [\d.]+ .*?; requests per create ([\d.]+)/m, out);
      const wireJson = /^most requests on the wire per node \(client\) (\{.*?\})/m.exec(out)?.[1];
      const wireValues = wireJson ? Object.values(JSON.parse(wireJson) as Record<string, number>) : [];
      const wire = wireValues.length ? Math.max(...wireValues) : undefined;
      const s = (x: number | undefined) => fmt(x, ' s');
      return [
        // Issue 21's goal (issue 11's was 1.15).
        { figure: 'bulk wall (to the last address) / physical floor', value: fmt(ratio), goal: '<= 1.10', ratio: over(ratio, 1.1) },
        { figure: 'bulk wall to the last address (simulated)', value: s(wallS), goal: 'report', ratio: undefined },
        { figure: 'physical floor (bandwidth + start + 50 s boot), busiest node', value: s(floorS), goal: 'report', ratio: undefined },
        { figure: "Proxmox's part of every create done at", value: s(proxmoxS), goal: 'report', ratio: undefined },
        {
          figure: 'requests/s at pveproxy, peak 1 s bucket on any node',
          value: fmt(peakRps),
          goal: '<= 3',
          ratio: over(peakRps, 3),
        },
        {
          figure: `requests/s at pveproxy on one node, mean (busiest: ${busiest ?? 'not found'})`,
          value: fmt(meanRps),
          goal: 'report',
          ratio: undefined,
        },
        {
          figure: 'most full clones copying at once on one storage',
          value: fmt(mostCopies),
          goal: `<= ${fmt(copyLimit)}`,
          ratio: copyLimit && mostCopies !== undefined ? mostCopies / copyLimit : undefined,
        },
        { figure: 'task-state requests per create (bulk)', value: fmt(taskState), goal: 'report', ratio: undefined },
        { figure: 'requests per create (bulk, all routes)', value: fmt(perCreate), goal: 'report', ratio: undefined },
        {
          figure: 'most requests on the wire on one node (client)',
          value: fmt(wire),
          goal: `<= ${DEFAULT_REQUESTS_PER_NODE}`,
          ratio: over(wire, DEFAULT_REQUESTS_PER_NODE),
        },
      ];
    },
  },
  {
    name: 'inventory',
    // 120 refreshes at the 5 s visible cadence: ten minutes of simulated refreshes.
    command: ['tsx', '--expose-gc', 'scripts/bench-inventory.ts', '120'],
    what: 'Steady-state refresh at 10, 1,000 and 5,000 VMs (answers from memory), then 120 more refreshes (ten minutes at the 5 s cadence) for the heap.',
    figures(out) {
      return [10, 1000, 5000].flatMap((vms): Figure[] => {
        const line = new RegExp(`^\\s*${vms} VMs.*$`, 'm').exec(out)?.[0] ?? '';
        const requests = num(/steady ([\d.]+) requests\/refresh/, line);
        const cpu = num(/([\d.]+) ms CPU\/refresh/, line);
        const heap = /heap ([\d.]+) → ([\d.]+) MB/.exec(line);
        const after = heap ? Number(heap[2]) : undefined;
        const growth = heap ? Number(heap[2]) - Number(heap[1]) : undefined;
        const rows: Figure[] = [
          { figure: `requests per refresh at ${vms} VMs (one cluster)`, value: fmt(requests), goal: '1', ratio: requests },
        ];
        if (vms === 5000)
          rows.push(
            { figure: 'main CPU per refresh at 5,000 VMs', value: fmt(cpu, ' ms'), goal: '< 20 ms', ratio: over(cpu, 20) },
            { figure: 'heap after ten minutes at 5,000 VMs', value: fmt(after, ' MB'), goal: '< 150 MB', ratio: over(after, 150) },
            {
              figure: 'heap growth over those ten minutes',
              value: fmt(growth === undefined ? undefined : Number(growth.toFixed(1)), ' MB'),
              goal: 'not growing (about 0)',
            },
          );
        return rows;
      });
    },
  },
  restartBench,
  {
    name: 'startup',
    // Builds first (npm run build, not timed), so it runs before the renderer bench, which reads out/ as it is.
    command: ['tsx', 'scripts/bench-startup.ts', '5'],
    what: 'Browser mode as `npm run start:web` runs it: from spawning the built host (`node out/main/web-host.js`, fresh data folder, demo cluster) to the first node card in an already running (warm) headless Chromium and a click on Nodes answered; 5 runs, median. Builds first (not timed).',
    figures(out) {
      const line = /^startup to interactive overview: .*$/m.exec(out)?.[0] ?? '';
      const median = num(/median ([\d.]+) s over/, line);
      const host = num(/host listening ([\d.]+) s/, line);
      const card = num(/first node card ([\d.]+) s\)/, line);
      const chromium = num(/Chromium's own start ([\d.]+) s/, line);
      return [
        { figure: 'start to interactive overview (median of 5)', value: fmt(median, ' s'), goal: '<= 1.5 s', ratio: over(median, 1.5) },
        { figure: 'start to host listening (median)', value: fmt(host, ' s'), goal: 'report' },
        { figure: 'start to first node card (median)', value: fmt(card, ' s'), goal: 'report' },
        { figure: "Chromium's own cold start (not counted)", value: fmt(chromium, ' s'), goal: 'report' },
      ];
    },
  },
  {
    name: 'renderer',
    command: ['tsx', 'scripts/bench-renderer.ts', '5000'],
    what: 'Proxies view with 5,000 rows in headless Chromium over the built renderer: click to rows, and one search keystroke, timed in the page (each keystroke starts a few ms after the previous frame; the same keystrokes at a random point of the 60 Hz frame clock, as a typist lands them, are reported beside).',
    figures(out) {
      const p95 = (label: string) => num(new RegExp(`^${label}.*?p95\\s+([\\d.]+) ms`, 'm'), out);
      const rows: [string, string, number][] = [
        ['first render of 5,000 rows, p95 (to rows in the DOM)', 'render: click to rows in DOM', 200],
        ['first render of 5,000 rows, p95 (to the next frame)', 'render: click to next frame', 200],
        ['search keystroke, p95 (to rows in the DOM)', 'search keystroke: to rows in DOM', 16],
        ['search keystroke, p95 (to the next frame)', 'search keystroke: to next frame', 16],
      ];
      const cpu = p95('search keystroke: main-thread CPU');
      return [
        ...rows.map(([figure, label, goal]) => ({
          figure,
          value: fmt(p95(label), ' ms'),
          goal: `< ${goal} ms`,
          ratio: over(p95(label), goal),
        })),
        { figure: 'search keystroke, p95 main-thread CPU (load-independent)', value: fmt(cpu, ' ms'), goal: 'report' },
        // A typist's keystrokes land anywhere in the 16.7 ms frame interval; the loop's land just after a frame.
        {
          figure: 'search keystroke at a random point of the frame clock, p95 (to the next frame)',
          value: fmt(p95('random phase: to next frame'), ' ms'),
          goal: 'report',
        },
      ];
    },
  },
  {
    name: 'history',
    command: ['tsx', 'scripts/bench-history.ts', '100', '30'],
    what: "Issue 15's history database (main/services/history/) over a simulated month: 100 proxies checked every 5 minutes for 30 days (864,000 checks, realistic latencies, ~1 % failures, a few address changes) plus 3 nodes' health every 30 s, written through the store in its batches; then the 7-day read of one proxy, cold (a fresh connection, 20 times) and warm (200 times), and a retention pass.",
    figures(out) {
      const size = num(/^database size ([\d.]+) MB/m, out);
      const checksOnly = num(/^checks alone ([\d.]+) MB/m, out);
      const cold = num(/^7-day read of one proxy .*?cold p95 ([\d.]+) ms/m, out);
      const warm = num(/^7-day read of one proxy .*?warm p95 ([\d.]+) ms/m, out);
      const coldCpu = num(/^7-day read CPU .*?cold p95 ([\d.]+) ms/m, out);
      const write = num(/^write CPU per check record ([\d.]+) µs/m, out);
      const share = num(/^write CPU share of one core .*?: ([\d.]+) %/m, out);
      return [
        { figure: 'history database, 100 proxies × 5 min × 30 days (+ node health)', value: fmt(size, ' MB'), goal: '< 50 MB', ratio: over(size, 50) },
        { figure: 'of which the checks', value: fmt(checksOnly, ' MB'), goal: 'report' },
        { figure: '7-day read of one proxy, p95, cold', value: fmt(cold, ' ms'), goal: '< 50 ms', ratio: over(cold, 50) },
        { figure: '7-day read of one proxy, p95, warm', value: fmt(warm, ' ms'), goal: '< 50 ms', ratio: over(warm, 50) },
        { figure: '7-day read of one proxy, p95 CPU, cold (load-independent)', value: fmt(coldCpu, ' ms'), goal: 'report' },
        { figure: 'write CPU per check record (the check itself is not counted here)', value: fmt(write, ' µs'), goal: 'report' },
        { figure: 'history writes, share of one core (100 proxies / 5 min)', value: fmt(share, ' %'), goal: 'report' },
      ];
    },
  },
  {
    name: 'checks',
    command: ['tsx', 'scripts/bench-checks.ts', '400'],
    what: "Issue 15's scheduled egress checks: one check as the schedule runs it (the proxy-check service's test through a loopback HTTP proxy to a loopback echo, both in a child process so their CPU is not counted; the record written to the history database file in its batches; the result published on the event bus), 400 times after a warm-up; the CPU of the app's process per check, extrapolated to 100 proxies every 5 minutes.",
    figures(out) {
      const perCheck = num(/^CPU per scheduled check ([\d.]+) ms/m, out);
      const share = num(/^checks, share of one core .*?: ([\d.]+) %/m, out);
      const wall = num(/^wall per check p50 ([\d.]+) ms/m, out);
      return [
        { figure: 'scheduled checks, share of one core (100 proxies / 5 min)', value: fmt(share, ' %'), goal: '< 1 %', ratio: over(share, 1) },
        { figure: 'CPU per scheduled check (check + record + publish)', value: fmt(perCheck, ' ms'), goal: 'report' },
        { figure: 'wall per check on loopback, p50', value: fmt(wall, ' ms'), goal: 'report' },
      ];
    },
  },
  {
    name: 'rrd',
    command: ['tsx', 'scripts/bench-rrd.ts'],
    what: "Issue 15's graphs: one RRD read end to end (the simulator's rrddata over HTTPS, the client's zod parse, the rrd service's series) per release (8.4, 9.2) and timeframe, median of 15 reads, with the points and the series' size. Reported only: the issue sets no goal for a graph read (a graph is read when its view opens, then cached per timeframe), so these figures are there to notice a regression.",
    figures(out) {
      return [...out.matchAll(/^(\S+) (\w+): (\d+) points, series (\d+) KiB, median ([\d.]+) ms/gm)].map((m) => ({
        figure: `RRD read, ${m[1]} ${m[2]} (${m[3]} points, ${m[4]} KiB)`,
        value: `${m[5]} ms`,
        goal: 'report: no goal set for a graph read',
      }));
    },
  },
  {
    name: 'seed',
    command: ['tsx', 'scripts/bench-seed.ts'],
    what: 'Building the NoCloud seed image, 200 builds per case.',
    figures(out) {
      return [...out.matchAll(/^(.*?): median ([\d.]+) ms/gm)].map((m) => ({
        figure: `seed build: ${m[1]}`,
        value: `${m[2]} ms`,
        goal: 'none set: reported',
      }));
    },
  },
];

/** Runs one benchmark through npx (Node 22 from node_modules), echoing its output; resolves with it. */
function run(bench: Bench): Promise<{ out: string; code: number | null; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npx', bench.command, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      process.stdout.write(d);
    });
    child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    child.on('exit', (code) => resolve({ out, code, seconds: (performance.now() - started) / 1000 }));
  });
}

const ratioText = (f: Figure) => (f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}${f.ratio <= 1 ? '' : ' (over)'}`);

function machine(chromium: string | undefined): string[] {
  const cpu = cpus();
  const [l1, l5, l15] = loadavg().map((x) => x.toFixed(2));
  return [
    `- CPU: ${cpu[0]?.model ?? 'unknown'}, ${cpu.length} logical cores`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${platform()} ${release()}`,
    `- Node: ${process.version} (from the repository's devDependency, through npx)`,
    `- Chromium: ${chromium ?? 'not run'} (headless, /usr/bin/chromium)`,
    `- Load average when the suite ended: ${l1} / ${l5} / ${l15} (1 / 5 / 15 min)`,
  ];
}

/** Said in the document when the machine was busy: its wall-clock figures then include waiting for a CPU. */
function loadNote(): string[] {
  const peak = Math.max(...results.map((r) => Number(r.loadBefore)), loadavg()[0]!);
  const cores = cpus().length;
  if (peak < cores * 0.75) return [`The machine was quiet (load average at most ${peak.toFixed(2)} on ${cores} cores).`];
  return [
    `The machine was busy: load average up to ${peak.toFixed(2)} on ${cores} cores during the run (other work shared the CPUs). Wall-clock`,
    'figures (create, bulk, renderer, startup) include waiting for a CPU, so they are an upper bound of what a quiet desktop shows;',
    'CPU-time figures (inventory) are less affected but still pay for cache and scheduler contention.',
  ];
}

const only = process.argv.slice(2).find((a) => !a.startsWith('--'))?.split(',');
const results: { bench: Bench; out: string; figures: Figure[]; code: number | null; seconds: number; loadBefore: string }[] = [];
for (const bench of benches.filter((b) => !only || only.includes(b.name))) {
  const loadBefore = loadavg()[0]!.toFixed(2);
  console.log(`\n=== bench:${bench.name} (load average ${loadBefore}) ===`);
  const { out, code, seconds } = await run(bench);
  results.push({ bench, out, figures: bench.figures(out), code, seconds, loadBefore });
}

console.log('\n=== Figures over goals (a ratio under 1 meets the goal) ===');
for (const { bench, figures, code } of results) {
  if (code !== 0) console.log(`bench:${bench.name} exited with ${code}`);
  for (const f of figures)
    console.log(`${bench.name.padEnd(9)} ${f.figure.padEnd(58)} ${f.value.padStart(12)}  goal ${f.goal.padEnd(22)} ${ratioText(f)}`);
}

const chromium = /Chromium ([\d.]+)/.exec(results.map((r) => r.out).join('\n'))?.[1];
const doc = [
  '# Performance',
  '',
  'Written by `npm run bench` (scripts/bench.ts); edit the script, not this file. Every figure comes from a script',
  'anyone can run; none is asserted in a test (a loaded machine gives slower numbers, not a failure). A ratio',
  'is the figure over its goal: under 1 meets it.',
  '',
  `Measured ${new Date().toISOString()} on:`,
  '',
  ...machine(chromium),
  '',
  ...loadNote(),
  '',
  '| Benchmark | Figure | Value | Goal | Ratio |',
  '| --- | --- | --- | --- | --- |',
  ...results.flatMap(({ bench, figures }) =>
    figures.map((f) => `| ${bench.name} | ${f.figure} | ${f.value} | ${f.goal} | ${ratioText(f)} |`),
  ),
  '',
  '## What each one measures and how to rerun it',
  '',
  ...results.flatMap(({ bench, code, seconds, loadBefore }) => [
    `- **${bench.name}** (\`npm run bench:${bench.name}\`, that is \`npx ${bench.command.join(' ')}\`; took ${seconds.toFixed(0)} s, load average ${loadBefore} at its start${code === 0 ? '' : `, exited with ${code}`}): ${bench.what}`,
  ]),
  '',
  'All of them: `npm run bench` (rewrites this file). One or a few: `npx tsx scripts/bench.ts core,bulk` (prints, leaves this file).',
  '',
  '## The model behind the bulk figures',
  '',
  ...MODEL,
  '',
  '## Reading the figures',
  '',
  ...READING,
  '',
];
const docPath = join(root, 'docs', 'performance.md');
const rowsOnly = only && process.argv.includes('--write-rows');
if (!only) writeFileSync(docPath, doc.join('\n'));
if (rowsOnly) {
  const runs = results.map(({ bench, figures }) => ({
    name: bench.name,
    rows: figures.map((f) => `| ${bench.name} | ${f.figure} | ${f.value} | ${f.goal} | ${ratioText(f)} |`),
    bullet: doc.find((l) => l.startsWith(`- **${bench.name}** (`))!,
  }));
  const merged = mergeRows(readFileSync(docPath, 'utf8'), runs, benches.map((b) => b.name));
  // The reading notes are built from the sources' constants, not measured: they are brought up to date as well.
  const reading = '## Reading the figures';
  const kept = merged.includes(reading) ? merged.slice(0, merged.indexOf(reading)) : `${merged}\n`;
  writeFileSync(docPath, kept + doc.slice(doc.indexOf(reading)).join('\n'));
}
console.log(
  rowsOnly ? `\nWrote the rows of ${only.join(', ')} into docs/performance.md` : only ? '\n(a partial run: docs/performance.md left as it was)' : '\nWrote docs/performance.md',
);
