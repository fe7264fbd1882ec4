/**
 * TLS choices over real handshakes: a failure is permanent, names what was
 * expected and what the certificate offers, and happens before any request
 * byte (the token above all) leaves the client.
 */
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPveClient } from '../../../main/core/pve/client';
import { classifyApiFailure, TlsVerificationError } from '../../../main/core/pve/errors';
import { createMemoryLogger } from '../../../main/log/logger';
import { createCa, createLeaf, createSelfSigned } from '../../../main/tls/certificates';
import { failureOf, SECRET, startHarness, TOKEN_ID, type Harness } from './harness';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});
async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  open.push(h);
  h.server.route('GET', '/version', { fixture: 'version' });
  return h;
}

/** A bare TLS server that records every byte it receives after the handshake. */
async function recordingTlsServer(certPem: string, keyPem: string): Promise<{ url: string; received: () => string }> {
  let received = '';
  const server: TlsServer = createTlsServer({ cert: certPem, key: keyPem }, (socket) => {
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push({ close: () => new Promise<void>((r) => server.close(() => r())) });
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received };
}

describe('TLS', () => {
  it('a certificate from an unknown CA is refused as permanent, naming the certificate', async () => {
    const h = await harness({ tls: { mode: 'system' } });
    const err = await failureOf(h.client.version());
    expect(err).toBeInstanceOf(TlsVerificationError);
    expect((err as TlsVerificationError).reason).toBe('unknown-ca');
    expect(classifyApiFailure('check', err)).toBe('permanent');
    expect(err.message).toContain("system's trusted roots");
    expect(err.message).toContain('CN=localhost');
    expect(err.message).toContain(h.server.certificate.fingerprint);
    expect(err.message).toContain('GET /version');
    expect(h.server.requests).toHaveLength(0);
  });

  it('a CA bundle that did not sign the certificate is refused the same way', async () => {
    const other = await createCa('Another CA');
    const h = await harness({ tls: { mode: 'ca', caPem: other.certPem } });
    const err = await failureOf(h.client.version());
    expect(err).toMatchObject({ name: 'TlsVerificationError', reason: 'unknown-ca' });
    expect(err.message).toContain('the configured CA certificate');
    expect(h.server.requests).toHaveLength(0);
  });

  it('a host the certificate does not list is refused, and the error lists the names it does hold', async () => {
    // The seeds' case: the node certificate lists 192.168.0.8 and pv1-1.home.lab, the admin dials another address.
    const h = await harness({
      replay: { leaf: { commonName: 'pv1-1.home.lab', dnsNames: ['pv1-1.home.lab', 'pv1-1'], ipAddresses: ['192.168.0.8'] } },
    });
    const err = await failureOf(h.client.version());
    expect(err).toMatchObject({ name: 'TlsVerificationError', reason: 'hostname' });
    expect(err.message).toContain('not valid for 127.0.0.1');
    for (const name of ['DNS:pv1-1.home.lab', 'DNS:pv1-1', 'IP Address:192.168.0.8']) expect(err.message).toContain(name);
    expect(h.server.requests).toHaveLength(0);
  });

  it('a TLS server name the certificate lists verifies while connecting to another address', async () => {
    const leaf = { commonName: 'pv1-1.home.lab', dnsNames: ['pv1-1.home.lab'], ipAddresses: ['192.168.0.8'] };
    const probe = await harness({ replay: { leaf } });
    const h = await harness({
      replay: { leaf },
      tls: { mode: 'ca', caPem: probe.server.ca!.certPem, serverName: 'pv1-1.home.lab' },
    });
    expect((await h.client.version()).version).toBe('9.2.20');
    // The override still verifies: a name the certificate does not hold fails.
    const wrong = await harness({ replay: { leaf }, tls: { mode: 'ca', caPem: probe.server.ca!.certPem, serverName: 'pv1-2.home.lab' } });
    expect(await failureOf(wrong.client.version())).toMatchObject({ reason: 'hostname' });
  });

  it('a pinned fingerprint accepts the self-signed certificate it names', async () => {
    const self = await createSelfSigned({ commonName: 'pve', dnsNames: ['pve.invalid'] });
    const h = await harness({ replay: { certificate: self }, tls: { mode: 'pin', fingerprint: self.fingerprint.toLowerCase() } });
    expect((await h.client.version()).version).toBe('9.2.20');
  });

  it('a wrong pin is refused before a single request byte is sent', async () => {
    const self = await createSelfSigned({ commonName: 'pve', dnsNames: ['pve.invalid'] });
    const other = await createSelfSigned({ commonName: 'elsewhere' });
    const server = await recordingTlsServer(self.certPem, self.keyPem);
    const log = createMemoryLogger();
    const client = createPveClient({
      baseUrl: server.url,
      tls: { mode: 'pin', fingerprint: other.fingerprint },
      token: { kind: 'secret', tokenId: TOKEN_ID, secret: () => SECRET },
      // The recorder never answers: a client that wrongly proceeds fails fast instead of hanging.
      requestTimeoutMs: 2_000,
      logger: log,
    });
    open.push(client);
    const err = await failureOf(client.version());
    expect(err).toMatchObject({ name: 'TlsVerificationError', reason: 'fingerprint' });
    expect(err.message).toContain(`Expected SHA-256 ${other.fingerprint}`);
    expect(err.message).toContain(self.fingerprint);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.received()).toBe('');

    // The recorder does see bytes when the pin matches, so the empty result above means something.
    const good = createPveClient({
      baseUrl: server.url,
      tls: { mode: 'pin', fingerprint: self.fingerprint },
      token: { kind: 'secret', tokenId: TOKEN_ID, secret: () => SECRET },
      requestTimeoutMs: 300,
      logger: log,
    });
    open.push(good);
    await failureOf(good.version());
    expect(server.received()).toContain('GET /api2/json/version');
  });

  it('insecure mode connects to anything and says so in a warn line', async () => {
    const self = await createSelfSigned({ commonName: 'pve' });
    const h = await harness({ replay: { certificate: self }, tls: { mode: 'insecure' } });
    expect((await h.client.version()).version).toBe('9.2.20');
    const warns = h.log.lines.map((l) => JSON.parse(l) as { level: string; msg: string }).filter((l) => l.level === 'warn');
    expect(warns).toHaveLength(1);
    expect(warns[0]!.msg).toMatch(/TLS verification is OFF/);
  });

  it('an expired certificate is refused even from the right CA', async () => {
    const ca = await createCa('Expiry CA');
    const expired = await createLeaf(ca, {
      commonName: 'localhost',
      ipAddresses: ['127.0.0.1'],
      notBefore: new Date(Date.now() - 10 * 86_400_000),
      validDays: 2,
    });
    const h = await harness({ replay: { certificate: expired }, tls: { mode: 'ca', caPem: ca.certPem } });
    const err = await failureOf(h.client.version());
    expect(err).toMatchObject({ name: 'TlsVerificationError', reason: 'invalid' });
    expect(err.message).toContain('CERT_HAS_EXPIRED');
  });
});
