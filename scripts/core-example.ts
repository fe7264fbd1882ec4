/**
 * The core as a library, against the simulator: the example docs/core.md
 * quotes. Run it with `npx tsx scripts/core-example.ts`; a test runs it too,
 * so the documented example cannot rot.
 */
import { randomUUID } from 'node:crypto';
import { createProvider, createPveClient } from '../main/core';
import { createLogger } from '../main/log/logger';
import { SEED_STORAGE, startSimulator } from '../main/simulator';

export async function runExample(log: (line: string) => void = console.log): Promise<void> {
  const sim = await startSimulator({ dataset: 'minimal', timeScale: 0.01, agentDelayMs: 1000 });
  const logger = createLogger({ sinks: [] });
  const operator = sim.tokens.operator!;
  const api = createPveClient({
    baseUrl: sim.url,
    tls: { mode: 'pin', fingerprint: sim.fingerprint },
    token: { kind: 'secret', tokenId: operator.tokenId, secret: () => operator.secret },
    logger,
  });
  try {
    const provider = createProvider(
      {
        url: sim.url,
        nodes: ['pv1-1'],
        isoStorage: SEED_STORAGE,
        templates: { 'debian-13': { vmid: 9001 } },
        machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
        tls: { mode: 'pin', fingerprint: sim.fingerprint },
        token: { kind: 'secret', tokenId: operator.tokenId },
      },
      { api, logger },
    );
    const signal = AbortSignal.timeout(60_000);

    const [node] = await provider.check({ signal });
    log(`check: ${node!.node} ${node!.reason}`);

    const id = await provider.create(
      {
        uid: randomUUID(),
        name: 'proxy-example',
        placement: { zone: 'pv1-1', machineType: 'small', image: 'debian-13' },
        cloudInit: '#cloud-config\n',
      },
      { signal, onProgress: (e) => e.phase === 'done' && log(`  ${e.index}/${e.total} ${e.step}`) },
    );
    log(`created ${id}`);

    // The agent reports an address a moment after the start: poll get until the proxy is running.
    let instance = await provider.get(id, { signal });
    while (instance.state !== 'running') {
      await new Promise((r) => setTimeout(r, 20));
      instance = await provider.get(id, { signal });
    }
    log(`get: ${instance.state} at ${instance.ip}`);
    log(`listed: ${(await provider.listByTag({ signal })).map((i) => i.id).join(', ')}`);

    await provider.delete(id, { signal });
    log(`deleted ${id}`);
  } finally {
    await api.close();
    await sim.close();
  }
}

if (process.argv[1]?.endsWith('core-example.ts')) await runExample();
