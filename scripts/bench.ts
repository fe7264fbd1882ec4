/**
 * `npm run bench`: every benchmark in turn, each in its own process (so one
 * does not warm or load the next), its figures read from what it prints and
 * shown as a ratio to its goal (under 1 meets it), then docs/performance.md
 * written with the machine, the date, the figures and how to rerun each.
 * Asserts nothing: a slow machine gives slow numbers, said as such.
 *
 *   npx tsx scripts/bench.ts [only=core,bulk,...]
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';

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
    what: 'One create (clone 3 s, upload 1 s, resize 1 s, start 1 s, each ±40 %): wall time over Proxmox task time, adaptive poll beside a fixed 1 s poll.',
    figures(out) {
      const adaptive = num(/^adaptive.*?ratio ([\d.]+)/m, out);
      const fixed = num(/^fixed-1s.*?ratio ([\d.]+)/m, out);
      const polls = num(/^adaptive.*?task polls\/create ([\d.]+)/m, out);
      return [
        { figure: 'create wall / Proxmox time (adaptive poll)', value: fmt(adaptive), goal: '<= 1.15', ratio: over(adaptive, 1.15) },
        { figure: 'create wall / Proxmox time (fixed 1 s poll, the Go way)', value: fmt(fixed), goal: 'comparison', ratio: undefined },
        { figure: 'task polls per create (adaptive)', value: fmt(polls), goal: 'report', ratio: undefined },
      ];
    },
  },
  {
    name: 'bulk',
    command: ['tsx', 'scripts/bench-bulk.ts', '20'],
    what: '20 proxies over 3 nodes through the task manager (createProxies, count 20, automatic placement), timeScale 1.',
    figures(out) {
      const ratio = num(/bulk ratio ([\d.]+)/, out);
      const most = num(/per-node limit \d+: \w+ \(most (\d+)\)/, out);
      const limit = num(/per-node limit (\d+)/, out);
      const floor = num(/floor set by the limits: (\d+) waves/, out);
      const perWave = num(/per wave ([\d.]+)/, out);
      const wire = num(/per-node request limit \d+: \w+ \(most (\d+)\)/, out);
      const wireLimit = num(/per-node request limit (\d+)/, out);
      return [
        { figure: 'bulk wall / one create wall', value: fmt(ratio), goal: '<= 1.5', ratio: over(ratio, 1.5) },
        { figure: 'floor the limits allow (waves of creates)', value: fmt(floor), goal: 'report', ratio: undefined },
        { figure: 'bulk ratio per wave', value: fmt(perWave), goal: 'about 1 (no time lost between waves)', ratio: undefined },
        {
          figure: 'most proxies built at once on one node',
          value: fmt(most),
          goal: `<= ${fmt(limit)}`,
          ratio: limit && most !== undefined ? most / limit : undefined,
        },
        {
          figure: 'most requests in flight on one node',
          value: fmt(wire),
          goal: `<= ${fmt(wireLimit)}`,
          ratio: wireLimit && wire !== undefined ? wire / wireLimit : undefined,
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
  {
    name: 'renderer',
    command: ['tsx', 'scripts/bench-renderer.ts', '5000'],
    what: 'Proxies view with 5,000 rows in headless Chromium over the built renderer: click to rows, and one search keystroke, timed in the page.',
    figures(out) {
      const p95 = (label: string) => num(new RegExp(`^${label}.*?p95\\s+([\\d.]+) ms`, 'm'), out);
      const rows: [string, string, number][] = [
        ['first render of 5,000 rows, p95 (to rows in the DOM)', 'render: click to rows in DOM', 200],
        ['first render of 5,000 rows, p95 (to the next frame)', 'render: click to next frame', 200],
        ['search keystroke, p95 (to rows in the DOM)', 'search keystroke: to rows in DOM', 16],
        ['search keystroke, p95 (to the next frame)', 'search keystroke: to next frame', 16],
      ];
      return rows.map(([figure, label, goal]) => ({
        figure,
        value: fmt(p95(label), ' ms'),
        goal: `< ${goal} ms`,
        ratio: over(p95(label), goal),
      }));
    },
  },
  {
    name: 'startup',
    command: ['tsx', 'scripts/bench-startup.ts', '3'],
    what: 'Browser mode from `tsx main/host/cli.ts` (fresh data folder, demo cluster) to the first node card in Chromium and a nav click answered.',
    figures(out) {
      const median = num(/median ([\d.]+) s over/, out);
      const card = num(/first node card ([\d.]+) s\);/, out);
      return [
        { figure: 'start to interactive overview (median)', value: fmt(median, ' s'), goal: 'none set: reported' },
        { figure: 'start to first node card (median)', value: fmt(card, ' s'), goal: 'none set: reported' },
      ];
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

/** What holds whatever the numbers: the arithmetic behind the goals. */
const READING = [
  '- **Bulk and the limits.** A create spends almost all its time waiting on Proxmox tasks, so the task manager lets',
  '  8 creates run per node and 24 in all (main/services/tasks/slots.ts): 20 over 3 nodes run in one wave. What',
  "  protects a node is the client's per-node request limit (main/core/pve/node-gate.ts, 4 on the wire per node):",
  '  however many creates poll their tasks, a node never sees more than that many requests at once.',
  '- **Where tasks run.** A clone runs as a task on the node that holds the template (as in Proxmox), so the node',
  '  with the template runs every clone; the per-node limit counts the node the proxy lands on, which is what the',
  '  bulk figure checks. bench:bulk prints both.',
  '- **Renderer and startup** times are wall clock inside a headless Chromium sharing the CPUs with everything',
  '  else; on this box the load average is printed beside each run.',
];

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

const only = process.argv[2]?.split(',');
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
  '## Reading the figures',
  '',
  ...READING,
  '',
];
if (!only) writeFileSync(join(root, 'docs', 'performance.md'), doc.join('\n'));
console.log(only ? '\n(a partial run: docs/performance.md left as it was)' : '\nWrote docs/performance.md');
