/**
 * The provider over the simulator through the real client, for the core's
 * integration tests and the benchmark. It delegates to the one simulator
 * harness (test/support/sim-cluster.ts) and only fixes the profile the core
 * tests speak about: the good template as `debian-13`, a machine type that
 * keeps the template's disk and one that grows it.
 */
import { createProvider, type Budgets, type Provider, type ProfileInput } from '../../../main/core';
import { createPveClient, type PveClient } from '../../../main/core/pve/client';
import type { TlsChoice } from '../../../main/core/pve/tls-choice';
import type { TokenSource } from '../../../main/core/pve/token';
import { createMemoryLogger, type Logger } from '../../../main/log/logger';
import type { Simulator, SimulatorOptions } from '../../../main/simulator';
import { profileFor, startSimCluster, type SimClusterOptions } from '../../support/sim-cluster';

export const TEMPLATE_VMID = 9001;

/** `small` keeps the template's 3G disk (no resize); `big` grows it, so a create runs every step. */
export const coreProfile = {
  templates: { 'debian-13': { vmid: TEMPLATE_VMID } },
  machineTypes: { small: { cores: 1, memoryMiB: 1024 }, big: { cores: 2, memoryMiB: 2048, diskGiB: 8 } },
} satisfies Partial<ProfileInput>;

/** Polls in milliseconds, for simulators at timeScale 0.001 to 0.01. */
export const fastBudgets: Partial<Budgets> = { youngPollMs: 2, oldPollMs: 10, youngForMs: 200 };

export interface SimProvider {
  sim: Simulator;
  client: PveClient;
  provider: Provider;
  /** Every line the provider and the client logged, at debug level. */
  logger: Logger & { lines: string[] };
  close(): Promise<void>;
}

export interface SimProviderOptions extends SimulatorOptions {
  /** A simulator token name (default `operator`: spec entry 14's roles). */
  tokenName?: string;
  budgets?: Partial<Budgets>;
  profile?: Partial<ProfileInput>;
  /** Client options beyond the defaults (the benchmarks pass the app's pace). */
  client?: SimClusterOptions['client'];
}

export async function simProvider(options: SimProviderOptions = {}): Promise<SimProvider> {
  const logger = createMemoryLogger('debug');
  const { profile, ...rest } = options;
  const env = await startSimCluster({
    tokenName: 'operator',
    budgets: fastBudgets,
    ...rest,
    logger,
    profile: { ...coreProfile, ...profile },
  });
  return { sim: env.sim, client: env.client, provider: env.cluster.provider, logger, close: () => env.close() };
}

export interface VariantOptions {
  tls?: TlsChoice;
  /** Where the client reads the token; the profile's token follows (a file path stays a file path). */
  token?: TokenSource;
  requestTimeoutMs?: number;
  profile?: Partial<ProfileInput>;
  budgets?: Partial<Budgets>;
}

/**
 * A second client and provider over a running simulator with another TLS
 * choice, token source, request timeout or profile: what the Checker tests
 * need to see a wrong CA, a missing token file or a short timeout.
 */
export function variantProvider(sim: Simulator, options: VariantOptions = {}) {
  const logger = createMemoryLogger('debug');
  const operator = sim.tokens.operator!;
  const token: TokenSource = options.token ?? { kind: 'secret', tokenId: operator.tokenId, secret: () => operator.secret };
  const tls: TlsChoice = options.tls ?? { mode: 'ca', caPem: sim.caPem ?? '' };
  const client = createPveClient({ baseUrl: sim.url, tls, token, requestTimeoutMs: options.requestTimeoutMs, logger });
  const profileToken =
    token.kind === 'file' ? { kind: 'file' as const, path: token.path } : { kind: 'secret' as const, tokenId: token.tokenId };
  const profile = profileFor(sim, operator.tokenId, { ...coreProfile, tls, token: profileToken, ...options.profile });
  const provider = createProvider(profile, { api: client, logger, budgets: { ...fastBudgets, ...options.budgets } });
  return { client, provider, logger, close: () => client.close() };
}
