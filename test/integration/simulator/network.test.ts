/**
 * Issue 24: `GET /nodes/{node}/network` as pve-manager's Network.pm answers it: the type filter, the SDN vnets
 * local to the node with `any_bridge`, and (8.0 on) only the bridges a token has SDN.Audit or SDN.Use on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../../main/simulator';
import { pve } from './raw';

let sim: Simulator | undefined;
afterEach(async () => sim?.close());

const names = (data: unknown) => (data as { iface: string; type: string }[]).map((e) => `${e.type}:${e.iface}`).sort();
const tokens = {
  bridgeOnly: { tokenId: 'net@pve!one', acl: { '/sdn/zones/localnetwork/vmbr1': ['SDN.Use'] } },
  noSdn: { tokenId: 'net@pve!none', acl: { '/': ['VM.Audit', 'Sys.Audit'] } },
};

describe('the node network listing', () => {
  it('lists Linux bridges and the local SDN vnets for any_bridge, bridges only for bridge, and never the vnets as eth', async () => {
    sim = await startSimulator({ timeScale: 0.001, dataset: 'demo', tokens });
    const any = await pve(sim, 'GET', '/nodes/pv1-1/network', { query: { type: 'any_bridge' } });
    expect(any.status).toBe(200);
    expect(names(any.data)).toEqual(['bridge:vmbr0', 'bridge:vmbr1', 'vnet:egress2']);
    const vnet = (any.data as Record<string, unknown>[]).find((e) => e.type === 'vnet');
    expect(vnet).toMatchObject({ vlanaware: 0, comments: 'VPN uplink', active: '1' });
    expect(names((await pve(sim, 'GET', '/nodes/pv1-1/network', { query: { type: 'bridge' } })).data)).toEqual([
      'bridge:vmbr0',
      'bridge:vmbr1',
    ]);
    expect(names((await pve(sim, 'GET', '/nodes/pv1-1/network', { query: { type: 'eth' } })).data)).toEqual(['eth:eno1', 'eth:eno2']);
  });

  it('leaves out, from 8.0, each bridge and vnet the token has no SDN.Audit or SDN.Use on; 7.4 lists every bridge', async () => {
    for (const [version, seen, none] of [
      ['9.2', ['bridge:vmbr1'], []],
      ['8.4', ['bridge:vmbr1'], []],
      ['7.4', ['bridge:vmbr0', 'bridge:vmbr1'], ['bridge:vmbr0', 'bridge:vmbr1']],
    ] as const) {
      sim = await startSimulator({ timeScale: 0.001, dataset: 'demo', tokens, version });
      const one = await pve(sim, 'GET', '/nodes/pv1-1/network', { query: { type: 'any_bridge' }, token: 'bridgeOnly' });
      expect(one.status, version).toBe(200);
      expect(names(one.data), version).toEqual(seen);
      const nothing = await pve(sim, 'GET', '/nodes/pv1-1/network', { query: { type: 'any_bridge' }, token: 'noSdn' });
      expect(names(nothing.data), version).toEqual(none);
      await sim.close();
      sim = undefined;
    }
  });
});
