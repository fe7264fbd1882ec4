import { createServer, type Server } from 'node:https';
import { connect, type PeerCertificate } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCa, createLeaf, createSelfSigned, normaliseFingerprint } from '../../../main/tls/certificates';
import { describePeerCertificate } from '../../../main/tls/describe';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(certPem: string, keyPem: string): Promise<number> {
  const server = createServer({ cert: certPem, key: keyPem }, (_req, res) => res.end('ok'));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function handshake(
  port: number,
  opts: { ca?: string; servername?: string },
): Promise<{ authorized: boolean; error?: string; peer: PeerCertificate }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...opts }, () => {
      const peer = socket.getPeerCertificate();
      resolve({ authorized: socket.authorized, error: socket.authorizationError ? String(socket.authorizationError) : undefined, peer });
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

describe('generated certificates', () => {
  it('a leaf signed by the CA verifies against that CA, with its DNS and IP names and the Proxmox-style fingerprint', async () => {
    const ca = await createCa();
    const leaf = await createLeaf(ca, { commonName: 'pv1-1.lab', dnsNames: ['pv1-1.lab'], ipAddresses: ['127.0.0.1'] });
    const port = await serve(leaf.certPem, leaf.keyPem);
    const result = await handshake(port, { ca: ca.certPem, servername: 'pv1-1.lab' });
    expect(result.authorized).toBe(true);
    const described = describePeerCertificate(result.peer);
    expect(described.subjectCommonName).toBe('pv1-1.lab');
    expect(described.issuerCommonName).toBe('Egress Desk Test CA');
    expect(described.subjectAltNames).toEqual(['DNS:pv1-1.lab', 'IP Address:127.0.0.1']);
    expect(described.fingerprint).toBe(leaf.fingerprint);
    expect(described.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(described.fingerprint).toBe(result.peer.fingerprint256);
    expect(described.selfSigned).toBe(false);
  });

  it('a self-signed leaf does not verify against another CA and is described as self-signed', async () => {
    const other = await createCa('Someone Else');
    const self = await createSelfSigned({ commonName: 'pve', dnsNames: ['pve.invalid'] });
    const port = await serve(self.certPem, self.keyPem);
    const result = await handshake(port, { ca: other.certPem });
    expect(result.authorized).toBe(false);
    expect(result.error).toMatch(/SELF_SIGNED/);
    expect(describePeerCertificate(result.peer).selfSigned).toBe(true);
    expect(describePeerCertificate(result.peer).fingerprint).toBe(self.fingerprint);
  });

  it('normalises fingerprints typed in other forms and rejects ones of the wrong length', () => {
    const canonical = 'AB:'.repeat(31) + 'CD';
    expect(normaliseFingerprint(canonical.toLowerCase())).toBe(canonical);
    expect(normaliseFingerprint(canonical.replace(/:/g, ''))).toBe(canonical);
    expect(normaliseFingerprint('AB:CD')).toBeUndefined();
  });
});
