/**
 * Issue 11: Automatic placement puts the node the profile's URL reaches last
 * among equals (its pveproxy also answers every call that names no node), so
 * a bulk gives it one create fewer, never more on another node than balance
 * allows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { goodTemplate, SEED_STORAGE, type ClusterDefinition } from '../../../../main/simulator';
import { storages } from '../../../../main/simulator/datasets';
import { pickNodes } from '../../../../main/services/tasks/requests/pick-nodes';
import { startSimCluster, type SimCluster } from '../../../support/sim-cluster';

const NODES = ['pv1-1', 'pv1-2', 'pv1-3'];
const TEMPLATES = [9001, 9101, 9201];
const bridges = [{ iface: 'vmbr0', vlanAware: true }];

/** Three nodes, each with its own copy of the template on its own local-lvm; the URL reaches pv1-1 (the first). */
const perNode: ClusterDefinition = {
  clusterName: 'per-node',
  nodes: NODES.map((node, i) => ({
    node,
    storages: storages(),
    bridges,
    vms: [goodTemplate(TEMPLATES[i]!)],
    isos: { [SEED_STORAGE]: [] },
  })),
};

let t: SimCluster | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const count = (picked: string[]) => Object.fromEntries(NODES.map((n) => [n, picked.filter((p) => p === n).length]));

describe('automatic placement and the node the URL reaches', () => {
  it('gives that node the fewest creates of a bulk and the last turn among equals', async () => {
    t = await startSimCluster({
      dataset: perNode,
      profile: { templates: { debian: { vmid: 9001, perNode: Object.fromEntries(NODES.map((n, i) => [n, TEMPLATES[i]!])) } } },
    });
    expect(count(await pickNodes(t.cluster, 20, 'debian'))).toEqual({ 'pv1-1': 6, 'pv1-2': 7, 'pv1-3': 7 });
    const three = await pickNodes(t.cluster, 3, 'debian');
    expect(count(three)).toEqual({ 'pv1-1': 1, 'pv1-2': 1, 'pv1-3': 1 });
    expect(three[2]).toBe('pv1-1');
  });
});
