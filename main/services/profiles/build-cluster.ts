/**
 * A stored profile as a connected Cluster: a client with the profile's TLS
 * choice and a token source that asks for the secret on every request (so
 * a new secret needs no reconnect, and a token file is re-read each time),
 * plus a provider. Nothing is requested from Proxmox here.
 */
import { type Budgets, createProvider, createPveClient, parseProfile, type PveClient, type TokenSource } from '../../core';
import type { Logger } from '../../log/logger';
import type { Cluster } from '../clusters/cluster';
import { APP_CLIENT_PACE } from '../clusters/client-policy';
import { toCoreProfile } from './core-profile';
import type { StoredProfile } from './document';

export interface BuiltCluster {
  cluster: Cluster;
  client: PveClient;
}

export interface BuildOptions {
  /** Resolves the token secret of a profile whose secret is held by the app. */
  secret: (profile: StoredProfile) => Promise<string>;
  /** Whether the app holds the profile's secret now, without asking anyone; absent: assume it does. */
  secretHeld?: (profile: StoredProfile) => boolean;
  logger: Logger;
  budgets?: Partial<Budgets>;
}

function tokenSource(profile: StoredProfile, secret: BuildOptions['secret']): TokenSource {
  const token = profile.token;
  if (token.secretStorage === 'file') return { kind: 'file', path: token.tokenFile };
  return { kind: 'secret', tokenId: token.tokenId, secret: () => secret(profile) };
}

export function buildCluster(profile: StoredProfile, options: BuildOptions): BuiltCluster {
  const core = parseProfile(toCoreProfile(profile));
  const logger = options.logger.child({ cluster: profile.id });
  const client = createPveClient({
    baseUrl: core.url,
    tls: core.tls,
    token: tokenSource(profile, options.secret),
    requestTimeoutMs: core.requestTimeoutSeconds > 0 ? core.requestTimeoutSeconds * 1000 : undefined,
    pace: APP_CLIENT_PACE,
    logger,
  });
  const provider = createProvider(core, { api: client, logger, budgets: options.budgets });
  const held = options.secretHeld;
  const secretMissing = held && profile.token.secretStorage !== 'file' ? () => !held(profile) : undefined;
  return {
    client,
    cluster: { id: profile.id, name: profile.name, profile: core, api: client, provider, demo: false, ...(secretMissing ? { secretMissing } : {}) },
  };
}
