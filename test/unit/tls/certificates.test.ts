/**
 * The certificates main/tls/certificates.ts writes as DER itself, read back
 * by Node's own X.509 parser (OpenSSL): a v3 certificate with a fresh
 * ECDSA P-256 key each time, signed with ECDSA-SHA256, a leaf that chains
 * to its CA by signature and key identifier, the names a TLS client checks
 * (DNS and IPv4/IPv6 addresses), the key usages, validity in either time
 * form, and the fingerprint in Proxmox's form of the DER it serves.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCa, createLeaf, createSelfSigned } from '../../../main/tls/certificates';

describe('generated certificates, as OpenSSL reads them', () => {
  it('a leaf chains to its CA: issuer, signature, key identifiers, CA flag', async () => {
    const ca = await createCa('Proxmox Virtual Environment (simulated)');
    const leaf = await createLeaf(ca, { commonName: 'pve-sim.home.lab', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
    const caCert = new X509Certificate(ca.certPem);
    const leafCert = new X509Certificate(leaf.certPem);
    expect(caCert.ca).toBe(true);
    expect(leafCert.ca).toBe(false);
    expect(caCert.subject).toBe('CN=Proxmox Virtual Environment (simulated)');
    expect(caCert.verify(caCert.publicKey)).toBe(true);
    expect(leafCert.issuer).toBe(caCert.subject);
    expect(leafCert.checkIssued(caCert)).toBe(true);
    expect(leafCert.verify(caCert.publicKey)).toBe(true);
    expect(leafCert.verify(leafCert.publicKey)).toBe(false);
    expect(leafCert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(leafCert.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
  });

  it('answers for its DNS names and its IPv4 and IPv6 addresses, and only those', async () => {
    const leaf = await createSelfSigned({
      commonName: 'pve',
      dnsNames: ['pve.lab', 'localhost'],
      ipAddresses: ['127.0.0.1', '::1', 'fe80::1:2', '::ffff:10.0.0.1', '2001:db8:1:2:3:4:5:6'],
    });
    const cert = new X509Certificate(leaf.certPem);
    expect(cert.subjectAltName).toBe(
      'DNS:pve.lab, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FE80:0:0:0:0:0:1:2, ' +
        'IP Address:0:0:0:0:0:FFFF:A00:1, IP Address:2001:DB8:1:2:3:4:5:6',
    );
    expect(cert.checkHost('pve.lab')).toBe('pve.lab');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('::1')).toBe('::1');
    expect(cert.checkHost('other.lab')).toBeUndefined();
    expect(cert.checkIP('127.0.0.2')).toBeUndefined();
    expect(cert.verify(cert.publicKey)).toBe(true);
  });

  it('a fresh P-256 key for every certificate, in memory as PKCS#8 PEM', async () => {
    const a = await createSelfSigned({ commonName: 'a' });
    const b = await createSelfSigned({ commonName: 'a' });
    expect(a.keyPem).not.toBe(b.keyPem);
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(a.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    const key = createPrivateKey(a.keyPem);
    expect(key.asymmetricKeyType).toBe('ec');
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(new X509Certificate(a.certPem).checkPrivateKey(key)).toBe(true);
  });

  it('validity: an hour back by default, or as given, in UTCTime and after 2049 in GeneralizedTime', async () => {
    const before = Date.now();
    const now = new X509Certificate((await createSelfSigned({ commonName: 'n' })).certPem);
    const from = Date.parse(now.validFrom);
    expect(from).toBeLessThanOrEqual(before - 60 * 60 * 1000 + 1000);
    expect(from).toBeGreaterThan(before - 60 * 60 * 1000 - 5000);
    expect(Date.parse(now.validTo) - from).toBe(365 * 86_400_000);

    const later = new X509Certificate(
      (await createSelfSigned({ commonName: 'l', notBefore: new Date(Date.UTC(2049, 11, 31, 12)), validDays: 2 })).certPem,
    );
    expect(new Date(later.validFrom).toISOString()).toBe('2049-12-31T12:00:00.000Z');
    expect(new Date(later.validTo).toISOString()).toBe('2050-01-02T12:00:00.000Z');
  });

  it('the fingerprint is SHA-256 of the DER, in the AA:BB:… form Proxmox shows', async () => {
    const leaf = await createSelfSigned({ commonName: 'f' });
    expect(leaf.fingerprint).toBe(new X509Certificate(leaf.certPem).fingerprint256);
    expect(leaf.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });
});
