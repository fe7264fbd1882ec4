/**
 * The CPU cost of the scheduled egress checks (issue 15's goal: under 1 % of
 * one core on average for 100 proxies every 5 minutes), never a timed test:
 * `npx tsx scripts/bench-checks.ts [checks=400]`.
 *
 * One scheduled check is what the app does at a proxy's phase: the proxy-check
 * service's `test` (TCP connect, then a GET of the echo URL through the
 * proxy, the egress address read from the answer), the record written to the
 * history database (a real file, in its batches), and the result published
 * on the event bus (validated against the contract, as in the app). The
 * loopback HTTP proxy and echo run in a child process, so their CPU is not
 * counted: in the app they are the guest's and the internet's.
 *
 * Prints the CPU (user + system) of this process per check, measured with
 * process.cpuUsage() over many checks after a warm-up, and that cost
 * extrapolated to 100 proxies every 5 minutes as a share of one core.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventBus } from '../main/ipc/event-bus';
import { createLogger } from '../main/log/logger';
import { ProxySwitches } from '../main/services/checks/proxy-switches';
import { CheckRunner } from '../main/services/checks/runner';
import { openHistoryDatabase } from '../main/services/history/history-db';
import { createProxyCheckService } from '../main/services/proxy-check/service';
import type { VmRow } from '../shared/channels/inventory';
import { startEchoTarget, startHttpProxy } from '../test/support/services/proxy-check/loopback';

const PROXIES = 100;
const INTERVAL_S = 300;

if (process.argv[2] === '--servers') {
  // The child: the proxy and the echo, on loopback; their ports go to the parent.
  const [echo, proxy] = await Promise.all([startEchoTarget(), startHttpProxy()]);
  process.send!({ echoPort: echo.port, proxyPort: proxy.port });
  process.on('disconnect', () => void Promise.all([echo.close(), proxy.close()]).then(() => process.exit(0)));
} else {
  const checks = Number(process.argv[2] ?? 400);
  const child = fork(import.meta.filename, ['--servers'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ports = await new Promise<{ echoPort: number; proxyPort: number }>((resolve) => child.once('message', (m) => resolve(m as never)));

  const logger = createLogger({ sinks: [] });
  const dir = mkdtempSync(join(tmpdir(), 'bench-checks-'));
  const history = openHistoryDatabase({ file: join(dir, 'history.sqlite'), logger });
  const bus = createEventBus(logger);
  let published = 0;
  bus.subscribe((name) => {
    if (name === 'checks.result') published++;
  });
  const row: VmRow = {
    clusterId: 'c',
    vmid: 100,
    node: 'pve1',
    name: 'proxy-a',
    state: 'running',
    status: 'running',
    owner: 'marked',
    tags: [],
    address: '127.0.0.1',
  };
  const proxyCheck = createProxyCheckService({
    lookup: (_c, vmid) => ({ ...row, vmid }),
    logger,
    defaultTargetUrl: `http://127.0.0.1:${ports.echoPort}/`,
  });
  const switches = new ProxySwitches({ logger });
  for (let i = 0; i < PROXIES; i++) switches.setEndpoint('c', 100 + i, { protocol: 'http', port: ports.proxyPort });
  const runner = new CheckRunner({
    proxyCheck,
    history,
    switches,
    publish: (record) => bus.publish('checks.result', record),
    now: () => Date.now(),
    logger,
  });
  const signal = new AbortController().signal;
  const one = (i: number) =>
    runner.scheduled({ key: `c/${100 + (i % PROXIES)}`, clusterId: 'c', vmid: 100 + (i % PROXIES), node: 'pve1' }, signal);

  for (let i = 0; i < 50; i++) await one(i);
  history.flush();

  const walls: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < checks; i++) {
    const started = performance.now();
    await one(i);
    walls.push(performance.now() - started);
  }
  history.flush();
  const cpu = process.cpuUsage(cpu0);

  const perCheckMs = (cpu.user + cpu.system) / 1000 / checks;
  const share = ((perCheckMs * PROXIES) / INTERVAL_S / 1000) * 100;
  const failed = history.checks('c', 100, 0).filter((c) => !c.ok).length;
  walls.sort((a, b) => a - b);
  const p = (q: number) => walls[Math.min(walls.length - 1, Math.floor(q * walls.length))]!.toFixed(2);
  console.log(`checks measured ${checks} (after 50 warm-up), published ${published}, failed ${failed}`);
  console.log(`wall per check p50 ${p(0.5)} ms, p95 ${p(0.95)} ms (loopback)`);
  console.log(
    `CPU per scheduled check ${perCheckMs.toFixed(3)} ms (user ${(cpu.user / 1000 / checks).toFixed(3)}, system ${(cpu.system / 1000 / checks).toFixed(3)}): check through the proxy + record + publish`,
  );
  console.log(`checks, share of one core (${PROXIES} proxies / ${INTERVAL_S / 60} min): ${share.toFixed(4)} %`);

  history.close();
  rmSync(dir, { recursive: true, force: true });
  child.disconnect();
}
