/**
 * A simulator plus a real client and provider pointed at it, as one
 * Cluster: the starting point of every service test.
 */
import { createProvider, parseProfile, type Budgets, type ProfileInput } from '../../main/core';
import { createPveClient, type PveClient, type PveClientOptions } from '../../main/core/pve/client';
import { createLogger, type Logger } from '../../main/log/logger';
import { MutableClusterDirectory, type Cluster } from '../../main/services/clusters/cluster';
import { SEED_STORAGE, startSimulator, type Simulator, type SimulatorOptions } from '../../main/simulator';

export interface SimCluster {
  sim: Simulator;
  client: PveClient;
  cluster: Cluster;
  directory: MutableClusterDirectory;
  close(): Promise<void>;
}

export interface SimClusterOptions extends SimulatorOptions {
  /** Which simulator token the client uses (default `admin`). */
  tokenName?: string;
  budgets?: Partial<Budgets>;
  logger?: Logger;
  profile?: Partial<ProfileInput>;
  id?: string;
  /** Extra client options (the bench's pace and API node). */
  client?: Partial<Pick<PveClientOptions, 'pace' | 'apiNode' | 'shareReads' | 'maxRequestsPerNode'>>;
}

/** The profile that matches a simulator dataset: its nodes, the seed storage and its good template. */
export function profileFor(sim: Simulator, tokenId: string, overrides: Partial<ProfileInput> = {}): ProfileInput {
  const nodes = [...sim.state.nodes.keys()];
  const templates: ProfileInput['templates'] = {};
  for (const vm of sim.state.vms.values()) if (vm.template) templates[`t${vm.vmid}`] = { vmid: vm.vmid };
  return {
    url: sim.url,
    nodes,
    isoStorage: SEED_STORAGE,
    templates,
    machineTypes: { small: { cores: 1, memoryMiB: 1024 }, medium: { cores: 2, memoryMiB: 2048, diskGiB: 8 } },
    tls: { mode: 'ca', caPem: sim.caPem ?? '' },
    token: { kind: 'secret', tokenId },
    ...overrides,
  };
}

export async function startSimCluster(options: SimClusterOptions = {}): Promise<SimCluster> {
  const logger = options.logger ?? createLogger({ sinks: [] });
  const sim = await startSimulator({ timeScale: 0.001, agentDelayMs: 1000, ...options });
  const token = sim.tokens[options.tokenName ?? 'admin'];
  if (!token) throw new Error(`the simulator has no token named ${options.tokenName}`);
  const profile = profileFor(sim, token.tokenId, options.profile);
  const client = createPveClient({
    baseUrl: sim.url,
    tls: { mode: 'ca', caPem: sim.caPem ?? '' },
    token: { kind: 'secret', tokenId: token.tokenId, secret: () => token.secret },
    requestTimeoutMs: 5000,
    logger,
    ...options.client,
  });
  const provider = createProvider(profile, { api: client, logger, budgets: options.budgets });
  const cluster: Cluster = {
    id: options.id ?? 'sim',
    name: 'Simulated cluster',
    profile: parseProfile(profile),
    api: client,
    provider,
    demo: false,
  };
  const directory = new MutableClusterDirectory();
  directory.set(cluster);
  return {
    sim,
    client,
    cluster,
    directory,
    async close() {
      await client.close();
      await sim.close();
    },
  };
}
