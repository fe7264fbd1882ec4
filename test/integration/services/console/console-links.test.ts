/**
 * Issue 16: `console.links` over the simulator: the Proxmox UI's console URL of a VM where it is now, foreign VMs
 * included (read-only for the app), a VM that is not the one named is not-found, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleHandlers } from '../../../../main/services/console/handlers';
import { startSimCluster, type SimCluster } from '../../../support/sim-cluster';

describe('console.links', () => {
  let s: SimCluster;
  let handler: ReturnType<typeof consoleHandlers>['console.links'];
  const links = (input: Parameters<typeof handler>[0]) => handler(input, { signal: new AbortController().signal, transport: 'test' });
  beforeAll(async () => {
    s = await startSimCluster({ dataset: 'demo', id: 'sim' });
    handler = consoleHandlers(s.directory)['console.links'];
  });
  afterAll(() => s?.close());

  it('answers the noVNC URL (and xterm.js, the VM has a serial port) on the node the VM is on, in the web UI’s own form', async () => {
    const answer = await links({ clusterId: 'sim', vmid: 150_001, name: 'proxy-a7k2m9x4q1w8e5r3t6' });
    expect(answer.node).toBe('pv1-1');
    const origin = new URL(s.sim.url).origin;
    expect(answer.links.map((l) => [l.viewer, l.url])).toEqual([
      ['novnc', `${origin}/?console=kvm&novnc=1&vmid=150001&vmname=proxy-a7k2m9x4q1w8e5r3t6&node=pv1-1&resize=off&cmd=`],
      ['xtermjs', `${origin}/?console=kvm&xtermjs=1&vmid=150001&vmname=proxy-a7k2m9x4q1w8e5r3t6&node=pv1-1&cmd=`],
    ]);
  });

  it('a foreign VM’s console too: the app writes nothing for it', async () => {
    const answer = await links({ clusterId: 'sim', vmid: 150_099, name: 'proxy-lookalike-not-ours' });
    expect(answer.links[0]!.url).toContain('vmid=150099');
  });

  it('a VMID whose VM has another name is not-found, with a hint', async () => {
    await expect(links({ clusterId: 'sim', vmid: 150_001, name: 'proxy-somebody-else' })).rejects.toMatchObject({ kind: 'not-found' });
  });

  it('an unknown cluster is not-found', async () => {
    await expect(links({ clusterId: 'nope', vmid: 150_001, name: 'x' })).rejects.toMatchObject({ kind: 'not-found' });
  });
});
