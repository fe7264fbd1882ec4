/**
 * The first-run demo: the simulator on loopback with the demo dataset, and
 * a cluster pointed at it, labelled as simulated everywhere it shows. The
 * connection is pinned to the simulator's certificate, and its token lives
 * in memory only: nothing about the demo is written to the profile file.
 */
import { createProvider, createPveClient, parseMark, parseProfile, type ProfileInput } from '../../core';
import { APP_CLIENT_PACE } from '../clusters/client-policy';
import type { Logger } from '../../log/logger';
import { registerSecret } from '../../log/secrets';
import { DEMO_ORPHAN_NODE, DEMO_ORPHAN_SEED, SEED_STORAGE, startSimulator, type Simulator } from '../../simulator';
import type { ProfileSummary } from '../../../shared/domain/profile';
import type { Cluster } from '../clusters/cluster';
import { demoSeededVmids, startDemoProxies, type DemoProxies } from './demo-proxies';

export const DEMO_CLUSTER_ID = 'demo';
export const DEMO_CLUSTER_NAME = 'Demo cluster (simulated)';

export interface DemoCluster {
  cluster: Cluster;
  summary: ProfileSummary;
  sim: Simulator;
  /** The loopback proxies behind the demo's proxy VMs, for Test; stopped with the demo. */
  proxies: DemoProxies;
  /** The catalogue for this session (a template built on the demo): `cluster` and `summary` follow; the new cluster is returned. */
  setTemplates(templates: ProfileSummary['templates']): Cluster;
  /** The simulator's admin token as one line, `user@realm!tokenid=secret`, for a hand-off bundle that asks for it. */
  tokenLine(): string;
  close(): Promise<void>;
}

/**
 * The catalogue from the simulator's templates, one image per template name.
 * A name found on several nodes is one image with a template per node: the
 * first one seen (VMID order) is the default, and each node holding another
 * copy gets that copy, so a create on it clones locally. In the demo,
 * debian-13-template is 9001 (on the shared nas-nfs, reachable from every
 * node) and 9101 on pv1-2 (its local-lvm).
 */
export function templatesOf(sim: Simulator): ProfileInput['templates'] {
  const templates: ProfileInput['templates'] = {};
  const vms = [...sim.state.vms.values()].filter((vm) => vm.template).sort((a, b) => a.vmid - b.vmid);
  for (const vm of vms) {
    const name = (typeof vm.config.name === 'string' ? vm.config.name : `template-${vm.vmid}`).slice(0, 64);
    const entry = Object.hasOwn(templates, name) ? templates[name] : undefined;
    if (!entry) templates[name] = { vmid: vm.vmid };
    else if (!entry.perNode?.[vm.node]) entry.perNode = { ...entry.perNode, [vm.node]: vm.vmid };
  }
  return templates;
}

/** Issue 24: where the demo's own proxies get their credentials, as real ones are kept (the credential store). */
export interface DemoCredentialKeeper {
  ensure(clusterId: string, uid: string, name: string, vmid: number): Promise<{ username: string; password: string }>;
}

/**
 * The demo's own proxies ask for credentials main makes and keeps like a real proxy's, so Test on the demo sends
 * them and the drawer can show them. Each VM is known by its mark's UID, as the store keys real ones.
 */
export async function demoCredentials(demo: DemoCluster, keeper: DemoCredentialKeeper): Promise<void> {
  for (const vmid of demoSeededVmids()) {
    const vm = demo.sim.state.vms.get(vmid);
    const uid = vm ? parseMark(typeof vm.config.description === 'string' ? vm.config.description : undefined).uid : undefined;
    if (!vm || !uid) continue;
    demo.proxies.requireCredentials(vmid, await keeper.ensure(DEMO_CLUSTER_ID, uid, String(vm.config.name), vmid));
  }
}

export async function startDemoCluster(logger: Logger, timeScale = 1): Promise<DemoCluster> {
  const sim = await startSimulator({ dataset: 'demo', timeScale, logger: logger.child({ part: 'demo-simulator' }) });
  // The demo's orphan seed is what a create that crashed two hours ago left: older than the cleanup's grace period
  // (15 min), so the first scan of a newcomer offers it instead of keeping it as "too young" (issue 23).
  const orphan = sim.state.iso(DEMO_ORPHAN_NODE, SEED_STORAGE, DEMO_ORPHAN_SEED);
  if (orphan) orphan.ctime -= 2 * 3600;
  const token = sim.tokens.admin;
  if (!token) throw new Error('the simulator offers no admin token');
  registerSecret(token.secret);
  const input: ProfileInput = {
    url: sim.url,
    nodes: [...sim.state.nodes.keys()],
    isoStorage: SEED_STORAGE,
    bridge: 'vmbr0',
    templates: templatesOf(sim),
    machineTypes: { small: { cores: 1, memoryMiB: 1024 }, medium: { cores: 2, memoryMiB: 2048, diskGiB: 8 } },
    tls: { mode: 'pin', fingerprint: sim.fingerprint },
    token: { kind: 'secret', tokenId: token.tokenId },
  };
  let profile = parseProfile(input);
  const client = createPveClient({
    baseUrl: sim.url,
    tls: profile.tls,
    token: { kind: 'secret', tokenId: token.tokenId, secret: () => token.secret },
    pace: APP_CLIENT_PACE,
    logger: logger.child({ cluster: DEMO_CLUSTER_ID }),
  });
  let proxies: DemoProxies;
  try {
    proxies = await startDemoProxies(sim, logger);
  } catch (e) {
    await client.close();
    await sim.close();
    throw e;
  }
  const now = new Date().toISOString();
  const summary: ProfileSummary = {
    id: DEMO_CLUSTER_ID,
    name: DEMO_CLUSTER_NAME,
    demo: true,
    url: profile.url,
    tls: { mode: 'pin', fingerprint: sim.fingerprint },
    token: { secretStorage: 'session', tokenId: token.tokenId },
    secretAvailable: true,
    nodes: profile.nodes,
    isoStorage: profile.isoStorage,
    bridge: 'vmbr0',
    vmidRange: profile.vmidRange,
    templates: profile.templates,
    machineTypes: profile.machineTypes,
    requestTimeoutSeconds: profile.requestTimeoutSeconds,
    installGuestAgent: profile.installGuestAgent,
    createdAt: now,
    updatedAt: now,
  };
  const clusterOf = (): Cluster => ({
    id: DEMO_CLUSTER_ID,
    name: DEMO_CLUSTER_NAME,
    profile,
    api: client,
    provider: createProvider(profile, { api: client, logger }),
    demo: true,
    demoProxies: proxies,
  });
  const demo: DemoCluster = {
    cluster: clusterOf(),
    summary,
    sim,
    proxies,
    setTemplates(templates) {
      // As a saved profile's change does: a new profile and provider over the same client.
      profile = parseProfile({ ...input, templates });
      demo.summary = { ...demo.summary, templates: profile.templates, updatedAt: new Date().toISOString() };
      demo.cluster = clusterOf();
      return demo.cluster;
    },
    tokenLine: () => `${token.tokenId}=${token.secret}`,
    async close() {
      await proxies.close();
      await client.close();
      await sim.close();
    },
  };
  return demo;
}
