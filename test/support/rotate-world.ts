/**
 * Issue 24, what the rotate tests share: a credential store whose vault
 * "encrypts" reversibly and statelessly (so a crash test's child and its
 * parent read each other's sealed sets from one data folder), and the app's
 * own proxy check over a simulator's guests through the demo's loopback
 * stand-ins (main/services/demo/demo-proxies.ts), which read the
 * credentials from the seed each guest booted with.
 */
import { parseMark } from '../../main/core';
import type { Logger } from '../../main/log/logger';
import type { ProxyCredentials } from '../../main/ports/proxy-credentials';
import { startDemoProxies, type DemoProxies } from '../../main/services/demo/demo-proxies';
import { createProxyCheckService, type ProxyCheckService } from '../../main/services/proxy-check/service';
import { createProxyCredentialStore, type ProxyCredentialStore } from '../../main/services/proxy-credentials/store';
import type { SecretVault } from '../../main/services/secrets/vault';
import type { Simulator } from '../../main/simulator';
import type { VmRow } from '../../shared/channels/inventory';
import type { ProxyCheckResult } from '../../shared/channels/proxy-check';

/** A vault like a desktop with a keyring: "encrypts" reversibly, with no state of its own, and says it is protected. */
export const testKeyring: SecretVault = {
  backend: async () => ({ kind: 'keyring', protected: true, detail: 'test' }),
  encrypt: async (text) => `enc:${Buffer.from(text).toString('hex')}`,
  decrypt: async (text) => Buffer.from(text.slice(4), 'hex').toString('utf8'),
};

/** The store as the app builds it, over `dataDir`, its VMs known by the simulator's marks. */
export function simCredentialStore(sim: () => Simulator | undefined, dataDir: string | undefined, logger: Logger): ProxyCredentialStore {
  return createProxyCredentialStore({
    vault: testKeyring,
    dataDir,
    logger,
    tokenStorage: () => 'keyring',
    vm: (_c, vmid) => {
      const vm = sim()?.state.vms.get(vmid);
      return { uid: vm ? parseMark(String(vm.config.description ?? '')).uid : undefined };
    },
  });
}

export interface SimChecks {
  service: ProxyCheckService;
  proxies: DemoProxies;
  /** The app's check of the VM's proxy (its preset's port), with these credentials or the store's. */
  check(vmid: number, credentials?: ProxyCredentials): Promise<ProxyCheckResult>;
  close(): Promise<void>;
}

/** The app's own check over the simulator's guests, each guest's proxy stood in for on loopback. */
export async function simChecks(sim: Simulator, store: { current?: ProxyCredentialStore }, logger: Logger): Promise<SimChecks> {
  const proxies = await startDemoProxies(sim, logger);
  const service = createProxyCheckService({
    logger,
    lookup: (_c, vmid) => {
      const vm = sim.state.vms.get(vmid);
      const running = vm?.power === 'running';
      return vm && ({ vmid, status: running ? 'running' : 'stopped', state: vm.power, address: '10.0.9.9' } as unknown as VmRow);
    },
    isDemo: () => true,
    demoRoute: async (_c, vmid, port) => proxies.route(vmid, port),
    credentials: { credentialsOf: async (c, vmid) => store.current?.credentialsOf(c, vmid) },
  });
  return {
    service,
    proxies,
    check: (vmid, credentials) =>
      service.test({ clusterId: 'sim', vmid, ...proxies.endpoint(vmid)! }, undefined, credentials ? { credentials } : {}),
    close: () => proxies.close(),
  };
}
