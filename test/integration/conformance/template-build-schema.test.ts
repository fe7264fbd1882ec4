/**
 * Issue 14: every request of a template build (the preflight's reads, download-url, the VM create
 * with import-from, the conversion, the image delete, and a failed build's clean-up) conforms to
 * the official Proxmox VE API schema (../shared/pve-api).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPveClient, type PveClient } from '../../../main/core/pve/client';
import { buildTemplate } from '../../../main/core/templates/build';
import { createLogger } from '../../../main/log/logger';
import { minimalCluster, simImages, startSimulator, type RequestRecord, type Simulator } from '../../../main/simulator';
import { catalogueImage } from '../../../shared/domain/image-catalogue';
import type { TaskKind } from '../../../main/simulator';

/** The builder's task types, which the simulator's TaskKind (the kinds with a configurable duration) does not list. */
const taskKind = (type: 'qmcreate' | 'qmtemplate') => type as unknown as TaskKind;
import { loadPveSchema, type PveSchema } from '../../support/pve-schema';

const loaded = loadPveSchema();
const skipReason = 'skipReason' in loaded ? loaded.skipReason : undefined;
if (skipReason) console.log(`SKIPPED template-build conformance: ${skipReason}`);
const schema = 'schema' in loaded ? loaded.schema : (undefined as unknown as PveSchema);

let sim: Simulator;
let client: PveClient;
beforeAll(async () => {
  const dataset = minimalCluster();
  dataset.nodes[0]!.storages = dataset.nodes[0]!.storages.map((s) =>
    s.storage === 'local' ? { ...s, content: `${s.content},import` } : s,
  );
  sim = await startSimulator({ timeScale: 0.001, agentDelayMs: 0, dataset });
  const token = sim.tokens.admin!;
  client = createPveClient({
    baseUrl: sim.url,
    tls: { mode: 'ca', caPem: sim.caPem ?? '' },
    token: { kind: 'secret', tokenId: token.tokenId, secret: () => token.secret },
    logger: createLogger({ sinks: [] }),
  });
});
afterAll(async () => {
  await client?.close();
  await sim?.close();
});

const problemsOf = (records: readonly RequestRecord[]) =>
  records.flatMap((r) => schema.check({ method: r.method, path: r.rawPath, params: { ...r.query, ...r.form } }));

describe.skipIf(skipReason !== undefined)('a template build against the official API schema', () => {
  it('sends only conforming requests, on success and on a failure with clean-up', async () => {
    const image = catalogueImage('ubuntu-24.04-amd64')!;
    const ctx = { api: client, log: createLogger({ sinks: [] }), budgets: { youngPollMs: 2, oldPollMs: 5, youngForMs: 200 } };
    const base = {
      node: 'pv1-1',
      image: { kind: 'catalogue' as const, id: image.id },
      targetStorage: 'local-lvm',
      bridge: 'vmbr0',
      vlanTag: 4,
      tokenId: sim.tokens.admin!.tokenId,
    };
    sim.requests.clear();
    await buildTemplate(ctx, {
      ...base,
      buildId: 'conf-1',
      checksum: { algorithm: 'sha256', value: simImages(sim).checksum(image.url, 'sha256') },
    });
    sim.faults.failTask({ type: taskKind('qmtemplate'), node: 'pv1-1' }, 'task_status_stopped_error', 1);
    await expect(buildTemplate(ctx, { ...base, buildId: 'conf-2', name: 'second-template', verifyCertificates: false })).rejects.toThrow();
    const routes = new Set(sim.requests.records.map((r) => `${r.method} ${r.route}`));
    for (const wanted of [
      'POST /nodes/{node}/storage/{storage}/download-url',
      'POST /nodes/{node}/qemu',
      'POST /nodes/{node}/qemu/{vmid}/template',
      'GET /cluster/nextid',
      'DELETE /nodes/{node}/storage/{storage}/content/{volume}',
      'DELETE /nodes/{node}/qemu/{vmid}',
    ])
      expect(routes, wanted).toContain(wanted);
    expect(problemsOf(sim.requests.records)).toEqual([]);
    expect(sim.requests.records.every((r) => r.status === 200)).toBe(true);
  });
});
