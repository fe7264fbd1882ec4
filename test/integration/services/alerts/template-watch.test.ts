/**
 * "A catalogue template no longer suitable" over the simulated demo cluster:
 * the template watch reads each catalogue template's config and judges it
 * with the doctor's verdict (the checks a create makes before it clones),
 * so the alert follows what the Templates view and a create would say, not
 * only a template that is gone. Raised once with the doctor's fix as its
 * hint, resolved once when the template is fixed; a health check that finds
 * a template missing asks for a read at once instead of in 10 minutes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertThresholds } from '../../../../shared/domain/alert-rules';
import { createLogger, createMemoryLogger } from '../../../../main/log/logger';
import { AlertEngine, type AlertEvent } from '../../../../main/services/alerts/engine';
import { TemplateRules } from '../../../../main/services/alerts/template-rules';
import { createTemplateWatch, judgeCatalogue, type TemplateWatch } from '../../../../main/services/alerts/template-watch';
import { MutableClusterDirectory } from '../../../../main/services/clusters/cluster';
import { startDemoCluster, type DemoCluster } from '../../../../main/services/demo/demo-cluster';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';
import type { HistoryStore } from '../../../../main/services/history/types';

let demo: DemoCluster;
let history: HistoryStore;
let watch: TemplateWatch;
let events: AlertEvent[] = [];
const logger = createMemoryLogger('debug');
const kinds = () => events.map((e) => `${e.kind} ${e.alert.target}`);

beforeAll(async () => {
  demo = await startDemoCluster(createLogger({ sinks: [] }));
  const directory = new MutableClusterDirectory();
  directory.set(demo.cluster);
  history = openHistoryDatabase({ file: ':memory:', logger: createLogger({ sinks: [] }) });
  const engine = new AlertEngine({ store: history, now: Date.now, onEvent: (e) => events.push(e) });
  const rules = new TemplateRules(
    engine,
    () => alertThresholds(undefined),
    () => 'Demo',
  );
  // No start(): the test decides when to read (the 10-minute timer and the directory hint stay off).
  watch = createTemplateWatch({ directory, rules, logger, soonMs: 10 });
});
afterAll(async () => {
  watch?.stop();
  history?.close();
  await demo?.close();
});
beforeEach(() => {
  events = [];
});

describe("the catalogue templates, judged by the doctor's rules", () => {
  it("gives the Templates view's verdicts, and announces none of the demo's two templates unsuitable from the start", async () => {
    const verdicts = await judgeCatalogue(demo.cluster);
    expect(verdicts.map((v) => `${v.key} ${v.vmid} ${v.node} ${v.problems.map((p) => p.code).join(',') || 'suitable'}`)).toEqual([
      'alpine-nonet-template 9002 pv1-1 no-net0',
      'debian-13-template 9001 pv1-1 suitable',
      'debian-13-template 9101 pv1-2 suitable',
      'ubuntu-2604-template 9000 pv1-1 cloud-init-drive',
    ]);
    await watch.checkNow('demo');
    expect(events).toEqual([]);
  });

  it('a Proxmox cloud-init drive added to a template (still a template): raised with the fix, resolved once removed', async () => {
    const template = demo.sim.state.vm(9101)!;
    template.config.ide2 = 'local-lvm:vm-9101-cloudinit,media=cdrom';
    await watch.checkNow('demo');
    await watch.checkNow('demo');
    expect(kinds()).toEqual(['raised template:9101']);
    expect(events[0]!.alert).toMatchObject({
      label: 'template "debian-13-template" (VM 9101 on pv1-2) of Demo',
      reason: expect.stringContaining('has a Proxmox cloud-init drive on ide2'),
      hint: expect.stringMatching(/^Remove the Proxmox cloud-init drive: `qm set 9101 --delete ide2`/),
    });
    delete template.config.ide2;
    await watch.checkNow('demo');
    await watch.checkNow('demo');
    expect(kinds()).toEqual(['raised template:9101', 'resolved template:9101']);
  });

  it('a health check that finds a template missing has it read soon: raised for the VM that is gone', async () => {
    const removed = demo.sim.state.vm(9101)!;
    demo.sim.state.removeVm(9101);
    watch.observeHealth('demo', 'TemplateNotFound');
    await vi.waitFor(() => expect(kinds()).toEqual(['raised template:9101']), { timeout: 10_000, interval: 20 });
    expect(events[0]!.alert.reason).toBe('Template "debian-13-template" (VM 9101) can no longer be cloned: VM 9101 does not exist.');
    // Put back (as a restore from backup would): the next check that passes in full has it read again.
    demo.sim.state.addVm(removed.node, { vmid: 9101, template: true, config: removed.config });
    watch.observeHealth('demo', 'Reachable');
    await vi.waitFor(() => expect(kinds()).toEqual(['raised template:9101', 'resolved template:9101']), { timeout: 10_000, interval: 20 });
  });

  it('a cluster that cannot be read says nothing either way', async () => {
    const template = demo.sim.state.vm(9001)!;
    template.config.ide2 = 'nas-nfs:9001/vm-9001-cloudinit.qcow2,media=cdrom';
    await watch.checkNow('demo');
    expect(kinds()).toEqual(['raised template:9001']);
    demo.sim.faults.nodeDown('pv1-1');
    demo.sim.faults.nodeDown('pv1-2');
    demo.sim.faults.nodeDown('pv1-3');
    try {
      delete template.config.ide2;
      await watch.checkNow('demo');
    } finally {
      for (const n of ['pv1-1', 'pv1-2', 'pv1-3']) demo.sim.faults.nodeUp(n);
    }
    expect(kinds()).toEqual(['raised template:9001']);
    await watch.checkNow('demo');
    expect(kinds()).toEqual(['raised template:9001', 'resolved template:9001']);
  });
});
