/**
 * The suite's egress guard (test/support/no-egress.ts, a setup file) on its
 * own: a connection beyond loopback throws before a socket is opened, names
 * the destination and is recorded; loopback, unix sockets and TLS to
 * 127.0.0.1 with a server name pass. 192.0.2.1 is TEST-NET-1, never routed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { egressAttempts, isLoopbackHost, takeEgressAttempts } from '../support/no-egress';

afterEach(() => {
  // The refusals here are provoked on purpose: take them so the file's afterAll does not fail.
  takeEgressAttempts();
});

function listen(server: net.Server, where: number | string = 0): Promise<void> {
  return new Promise((resolve) => server.listen(where as number, '127.0.0.1', resolve));
}

describe('the no-egress guard', () => {
  it('refuses 192.0.2.1 synchronously, before any socket, through every entry point, and records each', () => {
    const connects: Array<[string, () => unknown]> = [
      ['net.connect', () => net.connect({ host: '192.0.2.1', port: 9 })],
      ['net.createConnection', () => net.createConnection(9, '192.0.2.1')],
      ['net.Socket.prototype.connect', () => new net.Socket().connect(9, '192.0.2.1')],
      ['tls.connect', () => tls.connect({ host: '192.0.2.1', port: 443, servername: 'example.test' })],
      ['http.get', () => http.get('http://192.0.2.1:8080/')],
    ];
    for (const [via, open] of connects) expect(open, via).toThrow(/refused a connection to 192\.0\.2\.1:\d+/);
    expect(egressAttempts().map((a) => a.destination)).toEqual([
      '192.0.2.1:9',
      '192.0.2.1:9',
      '192.0.2.1:9',
      '192.0.2.1:443',
      '192.0.2.1:8080',
    ]);
  });

  it('refuses private ranges, IPv6 and host names (even unresolvable ones: resolving sends a query)', () => {
    for (const host of ['192.168.0.214', '10.0.0.1', '2001:db8::1', 'pve-sim.home.lab', 'example.com']) {
      expect(() => net.connect({ host, port: 8006 }), host).toThrow(/refused a connection/);
    }
    expect(takeEgressAttempts().map((a) => a.destination)).toEqual([
      '192.168.0.214:8006',
      '10.0.0.1:8006',
      '[2001:db8::1]:8006',
      'pve-sim.home.lab:8006',
      'example.com:8006',
    ]);
  });

  it('refuses fetch (undici) beyond loopback', async () => {
    await expect(fetch('http://192.0.2.1:8080/', { signal: AbortSignal.timeout(5000) })).rejects.toThrow();
    expect(takeEgressAttempts().map((a) => a.destination)).toEqual(['192.0.2.1:8080']);
  });

  it('lets loopback, localhost and unix sockets through', async () => {
    const server = net.createServer((s) => s.end('ok'));
    await listen(server);
    const { port } = server.address() as net.AddressInfo;
    const read = (socket: net.Socket) =>
      new Promise<string>((resolve, reject) => {
        let text = '';
        socket.on('data', (d) => (text += String(d))).on('end', () => resolve(text)).on('error', reject);
      });
    try {
      expect(await read(net.connect({ host: '127.0.0.1', port }))).toBe('ok');
      expect(await read(net.connect(port, '127.0.0.1'))).toBe('ok');
      expect(await read(net.connect({ port, host: 'localhost', family: 4 }))).toBe('ok');
    } finally {
      await new Promise((r) => server.close(r));
    }
    const dir = mkdtempSync(join(tmpdir(), 'no-egress-'));
    const unix = net.createServer((s) => s.end('unix'));
    await new Promise<void>((resolve) => unix.listen(join(dir, 's.sock'), resolve));
    try {
      expect(await read(net.connect({ path: join(dir, 's.sock') }))).toBe('unix');
      expect(await read(net.connect(join(dir, 's.sock')))).toBe('unix');
    } finally {
      await new Promise((r) => unix.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
    expect(egressAttempts()).toEqual([]);
  });

  it('tells loopback hosts from the rest', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1', '', undefined]) expect(isLoopbackHost(h), String(h)).toBe(true);
    for (const h of ['192.0.2.1', '0.0.0.0', '::', '128.0.0.1', 'localhost.example', 'pve-sim.home.lab']) expect(isLoopbackHost(h), h).toBe(false);
  });
});
