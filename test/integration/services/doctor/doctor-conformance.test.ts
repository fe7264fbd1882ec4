import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { runDoctor } from '../../../../main/services/doctor';
import { startSimulator, type Simulator } from '../../../../main/simulator';
import { loadPveSchema } from '../../../support/pve-schema';

const loaded = loadPveSchema();
const skipReason = 'skipReason' in loaded ? loaded.skipReason : undefined;
if (skipReason) console.log(`doctor conformance skipped: ${skipReason}`);

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ timeScale: 0.001, dataset: 'demo' });
});
afterAll(() => sim.close());

describe.skipIf(skipReason !== undefined)('connect doctor against the official Proxmox VE API schema', () => {
  it('every request of a full run (and of a run without a token) is a known method, path and parameter set that allows tokens', async () => {
    const { tokenId, secret } = sim.tokens.operator!;
    const tls = { mode: 'pin' as const, fingerprint: sim.fingerprint };
    const logger = createLogger({ sinks: [] });
    await runDoctor({ url: sim.url, tokenId, secret, tls }, { logger });
    await runDoctor({ url: sim.url, tokenId, tls }, { logger });
    const schema = 'schema' in loaded ? loaded.schema : undefined;
    expect(sim.requests.total).toBeGreaterThan(10);
    const problems = sim.requests.records.flatMap((r) =>
      schema!.check({ method: r.method, path: r.rawPath, params: { ...r.query, ...r.form } }),
    );
    expect(problems).toEqual([]);
  });
});
