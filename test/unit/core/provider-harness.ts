/** Builds a provider over FakePve with shrunk budgets and a memory logger. */
import { createMemoryLogger } from '../../../main/log/logger';
import { createProvider } from '../../../main/core';
import type { ProfileInput } from '../../../main/core';
import { vmidFor } from '../../../main/core/provider/rules/vmid';
import { FakePve } from './fake-pve';

export const UID = '3f1c2d7e-8a44-4f1b-9a6c-1d2e3f4a5b6c';
export const NAME = 'proxy-abc';
export const CLOUD_INIT_SENTINEL = '#cloud-config\n# SENTINEL-c1oud-1nit-d0-not-leak\n';

export const baseProfile: ProfileInput = {
  url: 'https://127.0.0.1:8006',
  nodes: ['pv1-1'],
  isoStorage: 'proxy-seeds',
  vlanTag: 4,
  templates: { 'debian-13': { vmid: 9001 } },
  machineTypes: { small: { cores: 2, memoryMiB: 2048, diskGiB: 8 } },
  tls: { mode: 'system' },
  token: { kind: 'secret', tokenId: 'egress@pve!desk' },
};

export const request = (overrides: { uid?: string; name?: string } = {}) => ({
  uid: overrides.uid ?? UID,
  name: overrides.name ?? NAME,
  placement: { zone: 'pv1-1', machineType: 'small', image: 'debian-13' },
  cloudInit: CLOUD_INIT_SENTINEL,
});

export const firstVmid = (uid = UID) => vmidFor(uid, { min: 100000, max: 199999 }, 0);

export function harness(profile: Partial<ProfileInput> = {}) {
  const fake = new FakePve();
  fake.addTemplate(9001);
  const logger = createMemoryLogger();
  const provider = createProvider(
    { ...baseProfile, ...profile },
    { api: fake, logger, budgets: { youngPollMs: 5, oldPollMs: 20, youngForMs: 100, cloneMs: 3000, runningMs: 1000 } },
  );
  return { fake, logger, provider };
}
