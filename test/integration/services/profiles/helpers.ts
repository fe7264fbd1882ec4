/** Shared pieces of the profile-service tests: a temp data folder, a sim-backed profile, the service over conf. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProfileFields } from '../../../../shared/domain/profile';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createProfileService } from '../../../../main/services/profiles';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import type { SecretVault } from '../../../../main/services/secrets/vault';
import { SEED_STORAGE, type Simulator } from '../../../../main/simulator';

export const SENTINEL = 'SENTINEL-5ec7e7-do-not-leak-9b1f';

export function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'egress-desk-profiles-'));
}

/** A profile for the simulator, pinned to its certificate. */
export function simProfile(sim: Simulator, tokenId: string, overrides: Partial<ProfileFields> = {}): ProfileFields {
  const templates: ProfileFields['templates'] = {};
  for (const vm of sim.state.vms.values()) if (vm.template) templates[`t${vm.vmid}`] = { vmid: vm.vmid };
  return {
    name: 'Home lab',
    url: sim.url,
    tls: { mode: 'pin', fingerprint: sim.fingerprint },
    token: { secretStorage: 'keyring', tokenId },
    nodes: [...sim.state.nodes.keys()],
    isoStorage: SEED_STORAGE,
    templates,
    machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
    ...overrides,
  };
}

/** A valid profile that needs no simulator (nothing is requested). */
export function plainProfile(overrides: Partial<ProfileFields> = {}): ProfileFields {
  return {
    name: 'Lab',
    // Loopback and a closed port: nothing here ever reaches a real host.
    url: 'https://127.0.0.1:9',
    tls: {
      mode: 'pin',
      fingerprint: 'AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99',
      serverName: 'pve1.home.lab',
    },
    token: { secretStorage: 'keyring', tokenId: 'proxy-operator@pve!operator' },
    nodes: ['pve1'],
    isoStorage: 'proxy-seeds',
    templates: { debian: { vmid: 9000 } },
    machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
    ...overrides,
  };
}

export function openService(dataDir: string, vault: SecretVault = createMemoryVault()) {
  const logger = createMemoryLogger('debug');
  const service = createProfileService({ dataDir, vault, logger });
  return { service, logger };
}
