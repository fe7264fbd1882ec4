/**
 * The TLS probe's one deadline (issue 10 item 9, the same class of bug as
 * the proxy check): `timeoutMs` bounds the whole probe, both handshakes
 * together, whatever the server does; a cancelled probe stops at once, even
 * when the caller cancelled before it began. Servers on loopback only.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, createLeaf, type GeneratedCa } from '../../../main/tls/certificates';
import { fetchServerCertificate } from '../../../main/services/doctor/tls-probe';

let ca: GeneratedCa;
let tls: TlsServer;
let tlsPort: number;
const open = new Set<Socket>();

beforeAll(async () => {
  ca = await createCa();
  const leaf = await createLeaf(ca, { commonName: 'pve', ipAddresses: ['127.0.0.1'] });
  tls = createTlsServer({ cert: leaf.certPem, key: leaf.keyPem }, (s) => s.on('error', () => undefined));
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  tlsPort = (tls.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of open) s.destroy();
  await new Promise((resolve) => tls.close(resolve));
});

/** In front of the TLS server: connection n is passed through after `delays[n]` ms, or never when it is undefined. */
async function front(delays: (number | undefined)[]): Promise<{ url: string; server: Server }> {
  let n = 0;
  const server = createServer((client) => {
    open.add(client);
    client.on('error', () => undefined);
    client.pause();
    const delay = delays[n++];
    if (delay === undefined) return;
    setTimeout(() => {
      const upstream = connect(tlsPort, '127.0.0.1');
      open.add(upstream);
      upstream.on('error', () => undefined);
      client.pipe(upstream).pipe(client);
      client.resume();
    }, delay);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function timed<T>(work: Promise<T>): Promise<{ outcome: T | unknown; ms: number }> {
  const started = performance.now();
  const outcome = await work.catch((e: unknown) => e);
  return { outcome, ms: performance.now() - started };
}

describe('the TLS probe deadline', () => {
  it('bounds both handshakes together: a slow first one and a silent second one end within the timeout', async () => {
    const { url, server } = await front([700, undefined]);
    try {
      const { outcome, ms } = await timed(fetchServerCertificate(url, { caPem: ca.certPem, timeoutMs: 1_000 }));
      expect(outcome).toMatchObject({ name: 'TransportError', failure: 'connect' });
      expect((outcome as Error).message).toBe(`no TLS handshake with ${new URL(url).host} within 1 s`);
      expect(ms).toBeLessThan(1_000 + 400);
    } finally {
      server.close();
    }
  });

  it('still answers when both handshakes finish in time', async () => {
    const { url, server } = await front([0, 0]);
    try {
      const probe = await fetchServerCertificate(url, { caPem: ca.certPem, timeoutMs: 5_000 });
      expect(probe).toMatchObject({ verifiesAgainstCa: true, hostnameMatches: true });
    } finally {
      server.close();
    }
  });

  it('stops at once for a signal cancelled before it began, and says cancelled', async () => {
    const { url, server } = await front([0]);
    try {
      const { outcome, ms } = await timed(fetchServerCertificate(url, { timeoutMs: 5_000, signal: AbortSignal.abort() }));
      expect(outcome).toMatchObject({ name: 'TransportError', failure: 'aborted' });
      expect(ms).toBeLessThan(500);
    } finally {
      server.close();
    }
  });

  it('stops at once when cancelled during a silent handshake', async () => {
    const { url, server } = await front([undefined]);
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const { outcome, ms } = await timed(fetchServerCertificate(url, { timeoutMs: 5_000, signal: controller.signal }));
      expect(outcome).toMatchObject({ name: 'TransportError', failure: 'aborted' });
      expect(ms).toBeLessThan(1_000);
    } finally {
      server.close();
    }
  });

  it('is not kept alive by a server that trickles its handshake a byte at a time', async () => {
    const trickle = createServer((s) => {
      open.add(s);
      s.on('error', () => undefined);
      s.once('data', () => {
        // A TLS handshake record announcing 16 KiB, then one byte of it every 200 ms.
        s.write(Buffer.from([0x16, 3, 3, 0x40, 0, 2]));
        const timer = setInterval(() => s.write(Buffer.from([0])), 200);
        s.on('close', () => clearInterval(timer));
      });
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(trickle.address() as AddressInfo).port}`;
      const { outcome, ms } = await timed(fetchServerCertificate(url, { timeoutMs: 1_000 }));
      expect(outcome).toMatchObject({ name: 'TransportError', failure: 'connect' });
      expect(ms).toBeLessThan(1_000 + 400);
    } finally {
      for (const s of open) s.destroy();
      trickle.close();
    }
  });
});
