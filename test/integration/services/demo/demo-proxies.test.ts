/**
 * The demo's loopback proxies on their own: each preset's protocol on
 * 127.0.0.1, answering the demo's echo themselves and refusing any other
 * target (they never connect out), the broken one at 502, the preset read
 * from a seed's cloud-config, and every port closed with the demo.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../../main/log/logger';
import { startDemoCluster, type DemoCluster } from '../../../../main/services/demo/demo-cluster';
import { DEMO_VLAN4_EGRESS_ADDRESS, demoEgressOf, presetOfSeed } from '../../../../main/services/demo/demo-proxies';
import { httpConnect } from '../../../../main/services/proxy-check/http-connect';
import { socks5Handshake } from '../../../../main/services/proxy-check/socks5';
import { presets } from '../../../../renderer/src/views/create/presets';
import { egressAttempts } from '../../../support/no-egress';

let demo: DemoCluster;
beforeAll(async () => {
  demo = await startDemoCluster(createLogger({ sinks: [] }), 0.02);
});
afterAll(async () => {
  await demo?.close();
});

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

async function loopbackPort(vmid: number, port: number): Promise<number> {
  const route = await demo.proxies.route(vmid, port);
  if (route?.kind !== 'listening') throw new Error(`no demo proxy for ${vmid}:${port}`);
  expect(route.host).toBe('127.0.0.1');
  return route.port;
}

/** One GET over a socket already tunnelled to the echo; the whole answer as text. */
async function getOver(socket: Socket, authority: string): Promise<string> {
  socket.write(`GET /ip HTTP/1.1\r\nHost: ${authority}\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('the demo proxies', () => {
  const echo = () => new URL(demo.proxies.echoUrl);

  it('tunnels CONNECT to the echo, which answers with the simulated egress address, and refuses any other target', async () => {
    const port = await loopbackPort(150_001, 3128);
    const ok = await open(port);
    await httpConnect(ok, '127.0.0.1', Number(echo().port));
    expect(await getOver(ok, echo().host)).toMatch(
      new RegExp(`^HTTP/1.1 200[\\s\\S]*\\r\\n\\r\\n${DEMO_VLAN4_EGRESS_ADDRESS.replaceAll('.', '\\.')}$`),
    );
    const other = await open(port);
    await expect(httpConnect(other, 'api.ipify.org', 443)).rejects.toMatchObject({ failure: 'refused-target', status: 403 });
    other.destroy();
  });

  it('exits from the address of the network the VM is on now: a Reconfigure to another VLAN moves its exit, on both protocols', async () => {
    const vms = [150_001, 150_002].map((vmid) => demo.sim.state.vms.get(vmid)!);
    const before = vms.map((vm) => vm.config.net0);
    try {
      for (const vm of vms) vm.config.net0 = String(vm.config.net0).replace('tag=4', 'tag=30');
      const http = await open(await loopbackPort(150_001, 3128));
      await httpConnect(http, '127.0.0.1', Number(echo().port));
      expect(await getOver(http, echo().host)).toMatch(/\r\n\r\n198\.51\.100\.30$/);
      const socks = await open(await loopbackPort(150_002, 1080));
      await socks5Handshake(socks, '127.0.0.1', Number(echo().port));
      expect(await getOver(socks, echo().host)).toMatch(/\r\n\r\n198\.51\.100\.30$/);
    } finally {
      vms.forEach((vm, i) => (vm.config.net0 = before[i]!));
    }
  });

  it('gives each demo network its own documentation address as the exit', () => {
    expect(demoEgressOf('virtio=BC:24:11:00:00:01,bridge=vmbr0')).toBe('203.0.113.47');
    expect(demoEgressOf('virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=4')).toBe(DEMO_VLAN4_EGRESS_ADDRESS);
    expect(DEMO_VLAN4_EGRESS_ADDRESS).toBe('198.51.100.4');
    expect(demoEgressOf('virtio=BC:24:11:00:00:01,bridge=vmbr0,tag=4094')).toBe('198.51.100.30');
    expect(demoEgressOf('virtio=BC:24:11:00:00:01,bridge=vmbr1')).toBe('203.0.113.48');
    expect(demoEgressOf('virtio=BC:24:11:00:00:01,bridge=egress2')).toBe('203.0.113.99');
    expect(demoEgressOf(undefined)).toBe('203.0.113.47');
  });

  it('speaks SOCKS5 for microsocks, and refuses a target other than the echo with "not allowed by ruleset"', async () => {
    const port = await loopbackPort(150_002, 1080);
    const ok = await open(port);
    await socks5Handshake(ok, '127.0.0.1', Number(echo().port));
    expect(await getOver(ok, echo().host)).toContain(`\r\n\r\n${DEMO_VLAN4_EGRESS_ADDRESS}`);
    const other = await open(port);
    await expect(socks5Handshake(other, 'api.ipify.org', 443)).rejects.toThrow('connection not allowed by ruleset');
    other.destroy();
  });

  it('has one broken proxy, answering 502 to CONNECT', async () => {
    const socket = await open(await loopbackPort(150_003, 8888));
    await expect(httpConnect(socket, '127.0.0.1', Number(echo().port))).rejects.toMatchObject({ status: 502 });
    socket.destroy();
  });

  it("answers 'closed' for a port the preset does not listen on, and nothing for an unknown VM", async () => {
    expect(await demo.proxies.route(150_001, 1080)).toMatchObject({ kind: 'closed' });
    expect(await demo.proxies.route(100, 3128)).toMatchObject({ kind: 'closed' });
    expect(await demo.proxies.route(999_999, 3128)).toBeUndefined();
  });

  it("reads a created proxy's preset and port from its seed's cloud-config", () => {
    const kinds = { squid: 'squid', tinyproxy: 'tinyproxy', socks5: 'microsocks', dante: 'dante' } as const;
    for (const preset of presets)
      expect(presetOfSeed(Buffer.from(`CD001 padding\n${preset.render(4321)}\n`, 'latin1'))).toEqual({
        kind: kinds[preset.id],
        port: 4321,
      });
    expect(presetOfSeed(Buffer.from('#cloud-config\npackages: [nginx]\n'))).toBeUndefined();
  });

  it('closes every listener with the demo, and leaves another demo alone', async () => {
    const other = await startDemoCluster(createLogger({ sinks: [] }), 0.02);
    const route = await other.proxies.route(150_001, 3128);
    if (route?.kind !== 'listening') throw new Error('expected a listener');
    await other.close();
    expect(await other.proxies.route(150_001, 3128)).toBeUndefined();
    await expect(open(route.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    (await open(await loopbackPort(150_001, 3128))).destroy();
  });

  it('connected to nothing but loopback', () => {
    expect(egressAttempts()).toEqual([]);
  });
});
