import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { runDoctor } from '../../../../main/services/doctor';
import { startSimulator, type Simulator } from '../../../../main/simulator';
import type { DoctorReport } from '../../../../shared/channels/doctor';

let sim: Simulator;
let report: DoctorReport;
beforeAll(async () => {
  sim = await startSimulator({ timeScale: 0.001, dataset: 'demo' });
  const { tokenId, secret } = sim.tokens.operator!;
  const tls = { mode: 'pin' as const, fingerprint: sim.fingerprint };
  report = await runDoctor({ url: sim.url, tokenId, secret, tls }, { logger: createLogger({ sinks: [] }) });
});
afterAll(() => sim.close());

describe('connect doctor on the three-node demo cluster', () => {
  it('an offline node is named and left out of the suggested nodes; the run still passes with a warning', () => {
    const offline = report.discovery.data.nodes.filter((n) => n.status !== 'online').map((n) => n.node);
    expect(offline.length).toBeGreaterThan(0);
    expect(report.discovery.status).toBe('warn');
    for (const node of offline) {
      expect(report.discovery.message).toContain(node);
      expect(report.suggestedProfile.nodes).not.toContain(node);
    }
    expect(report.ready).toBe(true);
  });

  it('two suitable templates with the same name both get a catalogue key', () => {
    const suitable = report.discovery.data.templates.filter((t) => t.suitable).map((t) => t.vmid);
    expect(suitable.length).toBeGreaterThan(1);
    expect(
      Object.values(report.suggestedProfile.templates)
        .map((t) => t.vmid)
        .sort(),
    ).toEqual(suitable.sort());
  });

  it("costs one request per listing, two per online node, one per template config, two permission reads and the cluster's name", () => {
    const online = report.suggestedProfile.nodes.length;
    const templates = report.discovery.data.templates.length;
    expect(sim.requests.byRoute()).toEqual({
      'GET /version': 1,
      'GET /nodes': 1,
      'GET /nodes/{node}/storage': online,
      'GET /nodes/{node}/network': online,
      'GET /cluster/resources': 1,
      'GET /nodes/{node}/qemu/{vmid}/config': templates,
      'GET /access/permissions': 2,
      // Issue 23: the wizard's default name is the cluster's own.
      'GET /cluster/status': 1,
    });
  });
});
