/**
 * A Proxmox VE look-alike on loopback HTTPS, for the demo mode, the
 * integration and end-to-end tests and the benchmarks. It behaves like the
 * real host in the execution log's facts F1 to F23; docs/simulator.md says
 * what it models and what it does not.
 */
import type { AddressInfo } from 'node:net';
import { createCa, createLeaf, createSelfSigned } from '../tls/certificates';
import { defaultTokens, TokenStore } from './auth';
import { SimClock } from './clock';
import type { SimContext } from './context';
import { DEMO_MID_CLONE, demoCluster, minimalCluster, SEED_STORAGE } from './datasets';
import { Faults } from './faults';
import { PveproxyLoad } from './load';
import { Physics } from './physics';
import { RequestLog } from './requests';
import { Router } from './router';
import { allRoutes } from './routes';
import { createSimServer } from './server';
import { ClusterState } from './state';
import { TaskRunner } from './tasks';
import { versionProfile } from './versions';
import type { ClusterDefinition, SimulatorOptions, TaskKind, TokenCredentials } from './types';

export type * from './types';
export type { RequestRecord } from './requests';
export type { RequestFault, RequestMatch, TaskMatch } from './faults';
export type { SimVm, SimNode, SimIso } from './state';
export type { SimTask } from './tasks';
export { ClusterState } from './state';
export { RequestLog } from './requests';
export { Faults } from './faults';
export { TaskRunner } from './tasks';
export { allRoutes } from './routes';
export { simImages, SimImages, DEFAULT_DOWNLOAD_BYTES_PER_SEC, type RemoteImage, type ImportVolume } from './images';
export { PVE_VERSIONS, DEFAULT_PVE_VERSION, VERSION_PROFILES, versionProfile, type PveVersion, type VersionProfile } from './versions';
export { Physics, FairShare, DEFAULT_BANDWIDTH, DEFAULT_TASK_OVERHEAD_MS } from './physics';
export { PveproxyLoad, DEFAULT_WORKERS, DEFAULT_REQUEST_COST_MS, type NodeLoad } from './load';
export {
  goodTemplate,
  cloudInitTemplate,
  noNetTemplate,
  plainVm,
  proxyVm,
  minimalCluster,
  demoCluster,
  SEED_STORAGE,
  DEMO_ORPHAN_SEED,
  DEMO_ORPHAN_NODE,
  DEMO_SHARED_STORAGE,
} from './datasets';

export const DEFAULT_TASK_DURATIONS: Record<TaskKind, number> = {
  qmclone: 3000,
  imgcopy: 1000,
  resize: 1000,
  qmstart: 1000,
  qmstop: 1000,
  qmdestroy: 1500,
  imgdel: 500,
  qmigrate: 3000,
  qmshutdown: 2000,
  qmreboot: 2000,
  qmresume: 500,
  qmsnapshot: 1500,
  qmrollback: 1500,
  qmdelsnapshot: 1000,
};

/** The SANs of the simulator's certificate; the DNS name does not resolve, for server-name override tests. */
export const SIMULATOR_SANS = ['127.0.0.1', 'localhost', 'pve-sim.home.lab'] as const;

export interface Simulator {
  /** `https://127.0.0.1:<port>`; the API is under `/api2/json`. */
  url: string;
  port: number;
  /** The CA that signed the leaf; undefined for a self-signed certificate. */
  caPem: string | undefined;
  certPem: string;
  /** SHA-256 of the leaf, `AA:BB:…`. */
  fingerprint: string;
  sans: string[];
  /** `admin`, `operator` (spec 14's roles), `noSeedAllocate` (no role on the seed storage), `auditor`, plus any given. */
  tokens: Record<string, TokenCredentials>;
  state: ClusterState;
  tasks: TaskRunner;
  faults: Faults;
  requests: RequestLog;
  clock: SimClock;
  /** Issue 11: bandwidth, fair-share copies and the floors `cloneSeconds` / `uploadSeconds`. */
  physics: Physics;
  /** Issue 11: pveproxy workers per node; `perNode()` gives requests per second. */
  load: PveproxyLoad;
  close(): Promise<void>;
}

function definitionOf(dataset: SimulatorOptions['dataset']): ClusterDefinition {
  if (dataset === 'demo') return demoCluster();
  if (dataset === undefined || dataset === 'minimal') return minimalCluster();
  return dataset;
}

async function certificate(kind: SimulatorOptions['certificate']) {
  const leafOptions = { commonName: 'pve-sim.home.lab', dnsNames: ['localhost', 'pve-sim.home.lab'], ipAddresses: ['127.0.0.1'] };
  if (kind === 'self-signed') return { caPem: undefined, leaf: await createSelfSigned(leafOptions) };
  const ca = await createCa('Proxmox Virtual Environment (simulated)');
  return { caPem: ca.certPem, leaf: await createLeaf(ca, leafOptions) };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const clock = new SimClock(options.timeScale ?? 1);
  const state = new ClusterState(definitionOf(options.dataset), clock);
  const faults = new Faults(state);
  const tasks = new TaskRunner(clock, (type, node, id) => faults.forTask(type, node, id));
  const tokens = new TokenStore({ ...defaultTokens(SEED_STORAGE), ...options.tokens });
  const { caPem, leaf } = await certificate(options.certificate);
  const physics = new Physics(state, clock, options.physics, options.taskDurations);
  const load = new PveproxyLoad(clock, options.physics?.workers, options.physics?.requestCostMs);
  const sim: SimContext = {
    state,
    tasks,
    tokens,
    clock,
    faults,
    durations: { ...DEFAULT_TASK_DURATIONS, ...options.taskDurations },
    physics,
    load,
    apiNode: options.physics?.apiNode ?? [...state.nodes.keys()][0]!,
    agentDelayMs: options.agentDelayMs ?? 50_000,
    version: versionProfile(options.version),
    fingerprint: leaf.fingerprint,
  };
  const requests = new RequestLog();
  const { server, sockets } = createSimServer(
    { sim, router: new Router(allRoutes), requests, logger: options.logger },
    { key: leaf.keyPem, cert: leaf.certPem },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  if (options.dataset === 'demo') startDemoClone(sim);
  options.logger?.info('simulator listening', { port, nodes: state.nodes.size, vms: state.vms.size });
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caPem,
    certPem: leaf.certPem,
    fingerprint: leaf.fingerprint,
    sans: [...SIMULATOR_SANS],
    tokens: tokens.credentials,
    state,
    tasks,
    faults,
    requests,
    clock,
    physics,
    load,
    close: () =>
      new Promise<void>((resolve) => {
        clock.stop();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The demo's clone in progress: a nameless, clone-locked VM whose task never ends. */
function startDemoClone(sim: SimContext): void {
  const { node, template, newid } = DEMO_MID_CLONE;
  sim.faults.hangTask({ type: 'qmclone', node, id: template }, 1);
  const vm = sim.state.addVm(node, { vmid: newid, config: {} });
  vm.cloning = true;
  vm.lock = 'clone';
  const task = sim.tasks.start(node, 'qmclone', template, { tokenId: 'proxy-operator@pve!operator' }, async () => undefined);
  vm.lockTask = task.upid;
}
