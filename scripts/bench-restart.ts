/**
 * Issue 27 item 4: what a start of the app costs the cluster at 1,000 and
 * 5,000 proxies, cold (nothing kept) and restarted (the inventory's memory of
 * the run before, main/services/inventory/memory.ts, in a temporary data
 * folder): the requests of the first refresh, those of the first minute (the
 * 5 s listings, the config and agent reads, the kept marks read again at
 * VERIFY_PER_NODE per node), and how long until every kept mark was
 * read again. Answers from memory (bench-inventory-api.ts), the clock moved
 * by hand a second at a time. Prints numbers; asserts nothing.
 *
 *   npx tsx scripts/bench-restart.ts
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProvider } from '../main/core';
import { createLogger } from '../main/log/logger';
import { MutableClusterDirectory } from '../main/services/clusters/cluster';
import { fileInventoryMemory, VERIFY_GAP_MS, VERIFY_PER_NODE } from '../main/services/inventory/memory';
import { createInventoryService } from '../main/services/inventory/service';
import { SimClock } from '../main/simulator/clock';
import { ClusterState } from '../main/simulator/state';
import { proxyCluster } from '../test/support/services/inventory/harness';
import { benchProfile, manualTimers, memoryApi, type RequestCounter } from './bench-inventory-api';

const profile = benchProfile;
const logger = createLogger({ sinks: [] });
/** Long enough for 5,000 kept marks at one per node every 4 s on two nodes (10,000 s), with room. */
const VERIFY_CAP_S = 12_000;

interface Start {
  first: RequestCounter['kinds'] & { total: number };
  minute: RequestCounter['kinds'] & { total: number };
  /** Seconds until the config reads of the run reached `verifyAll` (undefined when not asked or not reached). */
  allVerifiedS?: number;
}

const copy = (c: RequestCounter) => ({ ...c.kinds!, total: c.requests });

/** One start of the app over `state` with `dir` as its data folder's inventory memory. */
async function start(state: ClusterState, clock: SimClock, dir: string, verifyAll?: number): Promise<Start> {
  const counter: RequestCounter = { requests: 0, kinds: { listing: 0, config: 0, agent: 0 } };
  // A fresh listing body per start: the uptimes have grown since the run before, as on a real cluster.
  const api = memoryApi(state, clock, counter);
  const directory = new MutableClusterDirectory();
  directory.set({ id: 'bench', name: 'bench', profile, api, provider: createProvider(profile, { api }), demo: false });
  const { timers, advance } = manualTimers();
  const memory = fileInventoryMemory(dir, logger);
  const inventory = createInventoryService({ clusters: directory, publish: () => undefined, logger, timers, memory });
  inventory.start();
  await inventory.idle();
  const first = copy(counter);
  let s = 0;
  for (; s < 60; s++) {
    advance(1_000);
    await inventory.idle();
  }
  const minute = copy(counter);
  let allVerifiedS: number | undefined;
  if (verifyAll !== undefined) {
    const configsAtStart = first.config;
    for (; s < VERIFY_CAP_S && counter.kinds!.config - configsAtStart < verifyAll; s++) {
      advance(1_000);
      await inventory.idle();
    }
    if (counter.kinds!.config - configsAtStart >= verifyAll) allVerifiedS = s;
  }
  inventory.stop();
  return { first, minute, ...(allVerifiedS !== undefined ? { allVerifiedS } : {}) };
}

const said = (c: Start['first']) => `${c.total} requests (${c.listing} listings, ${c.config} config reads, ${c.agent} agent reads)`;

async function measure(vms: number): Promise<void> {
  const clock = new SimClock(1);
  const state = new ClusterState(proxyCluster(vms), clock);
  const dir = mkdtempSync(join(tmpdir(), 'bench-restart-'));
  try {
    const cold = await start(state, clock, dir);
    const [file] = readdirSync(dir);
    const bytes = file ? statSync(join(dir, file)).size : 0;
    const readStart = performance.now();
    fileInventoryMemory(dir, logger).load('bench', profile.url);
    const readMs = performance.now() - readStart;
    const restart = await start(state, clock, dir, vms);
    console.log(
      [
        `${String(vms).padStart(5)} VMs`,
        `cold: first refresh ${said(cold.first)}, first minute ${said(cold.minute)}`,
        `restart: first refresh ${said(restart.first)}, first minute ${said(restart.minute)}`,
        `every kept mark read again after ${restart.allVerifiedS ?? `more than ${VERIFY_CAP_S}`} s`,
        `memory file ${(bytes / 2 ** 20).toFixed(2)} MB, read and checked in ${readMs.toFixed(1)} ms`,
      ].join(' | '),
    );
  } finally {
    clock.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`(kept marks read again at ${VERIFY_PER_NODE} per node every ${VERIFY_GAP_MS / 1000} s while shown, 2 nodes; the listing every 5 s)`);
for (const vms of [1_000, 5_000]) await measure(vms);
