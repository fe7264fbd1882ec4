/** A provider wired to the simulator through the real client, for integration tests and the benchmark. */
import { createProvider, type ProviderDeps } from '../../../main/core';
import { createPveClient } from '../../../main/core/pve/client';
import { createLogger } from '../../../main/log/logger';
import { SEED_STORAGE, startSimulator, type SimulatorOptions } from '../../../main/simulator';

export async function simProvider(options: SimulatorOptions, budgets: ProviderDeps['budgets'] = {}) {
  const sim = await startSimulator(options);
  const operator = sim.tokens.operator!;
  const logger = createLogger({ sinks: [] });
  const client = createPveClient({
    baseUrl: sim.url,
    tls: { mode: 'ca', caPem: sim.caPem! },
    token: { kind: 'secret', tokenId: operator.tokenId, secret: () => operator.secret },
    logger,
  });
  const provider = createProvider(
    {
      url: sim.url,
      nodes: ['pv1-1'],
      isoStorage: SEED_STORAGE,
      templates: { 'debian-13': { vmid: 9001 } },
      machineTypes: { small: { cores: 1, memoryMiB: 1024 }, big: { cores: 2, memoryMiB: 2048, diskGiB: 64 } },
      tls: { mode: 'ca', caPem: sim.caPem! },
      token: { kind: 'secret', tokenId: operator.tokenId },
    },
    { api: client, logger, budgets },
  );
  return {
    sim,
    client,
    provider,
    close: async () => {
      await client.close();
      await sim.close();
    },
  };
}
