/**
 * Time from starting browser mode (`npx tsx main/host/cli.ts`, a fresh data
 * folder, so the demo cluster starts) to an interactive Overview in
 * Chromium: the first node card visible, then a click on "Nodes" answered
 * (its heading shown). Chromium is already running, as a user's browser
 * would be. Builds the renderer first if out/renderer is missing.
 * Prints the phases per run and the median; no goal, asserts nothing.
 *
 *   npx tsx scripts/bench-startup.ts [runs=3]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumMissingReason, launchChromium } from '../test/support/browser';
import { rendererMissingReason, repoRoot } from '../test/support/web-host';

const RUNS = Math.max(1, Number(process.argv[2] ?? 3));

const noChromium = chromiumMissingReason();
if (noChromium) {
  console.log(`bench-startup: not run: ${noChromium}`);
  process.exit(0);
}
if (rendererMissingReason()) {
  console.log('bench-startup: out/renderer missing, building it first (npm run build)');
  const build = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** Resolves with the URL the host prints (`Open: …`). */
function urlOf(host: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    host.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Open: (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    host.once('exit', (code) => reject(new Error(`the host exited (${code}) before printing its URL:\n${out}`)));
  });
}

/** Stops the host and everything npx started under it (its own process group). */
function stop(host: ChildProcess): Promise<void> {
  if (host.exitCode !== null || host.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((r) => host.once('exit', () => r()));
  process.kill(-host.pid, 'SIGTERM');
  return exited;
}

const browser = await launchChromium();
const runs: { url: number; card: number; nav: number }[] = [];
try {
  for (let run = 0; run < RUNS; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-bench-startup-'));
    const t0 = performance.now();
    const host = spawn('npx', ['tsx', 'main/host/cli.ts'], {
      cwd: repoRoot,
      env: { ...process.env, EGRESS_DESK_DATA_DIR: dataDir, EGRESS_DESK_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    try {
      const url = await urlOf(host);
      const tUrl = performance.now();
      await page.goto(url);
      await page
        .getByRole('article', { name: /^Node / })
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
      const tCard = performance.now();
      await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Nodes', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Nodes' }).waitFor({ state: 'visible', timeout: 30_000 });
      const tNav = performance.now();
      runs.push({ url: tUrl - t0, card: tCard - t0, nav: tNav - t0 });
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      console.log(`run ${run + 1}: host listening ${s(tUrl - t0)}, first node card ${s(tCard - t0)}, nav click answered ${s(tNav - t0)}`);
    } finally {
      await page.close();
      await stop(host);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `startup to interactive overview: median ${(median(runs.map((r) => r.nav)) / 1000).toFixed(2)} s over ${runs.length} run(s) ` +
    `(host listening ${(median(runs.map((r) => r.url)) / 1000).toFixed(2)} s, first node card ${(median(runs.map((r) => r.card)) / 1000).toFixed(2)} s); Chromium ${browser.version()}; no goal set`,
);
