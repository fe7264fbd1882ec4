/**
 * Certificate tools: make a CA, a leaf signed by it, or a self-signed leaf
 * (the simulator's own certificate, test servers), and describe a peer's
 * certificate in the terms an admin compares with the Proxmox web UI.
 *
 * Keys are ECDSA P-256 from node:crypto (fresh per certificate, kept in
 * memory); the X.509 v3 structure is written here as DER, the few fields a
 * TLS server certificate needs, and signed with ECDSA-SHA256. A library for
 * this cost browser mode a fifth of a second at every start (loading it and
 * its first use), for the demo simulator's one certificate.
 */
import { createHash, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface GeneratedCertificate {
  certPem: string;
  keyPem: string;
  /** SHA-256 of the DER certificate as Proxmox shows it: `AA:BB:…` uppercase. */
  fingerprint: string;
}

/** A CA also keeps its key objects so it can sign leaves. */
export interface GeneratedCa extends GeneratedCertificate {
  readonly signer: { name: string; privateKey: KeyObject; publicKey: KeyObject };
}

export interface LeafOptions {
  commonName: string;
  /** DNS names and IP addresses (v4 or v6) the certificate answers for. */
  dnsNames?: string[];
  ipAddresses?: string[];
  validDays?: number;
  /** Validity start; defaults to an hour ago to tolerate clock skew. */
  notBefore?: Date;
}

/** Proxmox's fingerprint form: colon-separated uppercase hex of SHA-256(DER). */
export function formatFingerprint(sha256: Uint8Array): string {
  return [...sha256].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
}

/** Accepts `aa:bb…`, `AABB…` or with spaces, and returns the canonical `AA:BB:…` form (or undefined if not 32 bytes of hex). */
export function normaliseFingerprint(input: string): string | undefined {
  const hex = input.replace(/[\s:]/g, '').toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return undefined;
  return hex.match(/../g)!.join(':');
}

// ---- DER, just what a certificate needs (X.690) ----

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : n < 0x10000 ? Buffer.from([0x82, n >> 8, n & 0xff]) : undefined;
  if (!length) throw new Error('DER value too long');
  return Buffer.concat([Buffer.from([tag]), length, body]);
}
const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unusedBits = 0) => tlv(0x03, Buffer.from([unusedBits]), b);
const explicit = (n: number, inner: Buffer) => tlv(0xa0 + n, inner);
const derTrue = Buffer.from([0x01, 0x01, 0xff]);

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = arc >>> 7; v > 0; v >>>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 4.1.2.5), whole seconds, UTC. */
function time(d: Date): Buffer {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const year = d.getUTCFullYear();
  return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${digits}Z`));
}

/** A Name with one CN (UTF8String). */
const name = (commonName: string) => seq(set(seq(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));

function ipBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  if (!isIPv6(ip)) throw new Error(`not an IP address: ${ip}`);
  // Eight 16-bit words, `::` standing for the zeros; a trailing dotted quad fills the last two.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  const hex = v4 ? ip.slice(0, -v4.length) : ip;
  const words = (s: string | undefined) =>
    (s ?? '')
      .split(':')
      .filter((w) => w !== '')
      .map((w) => parseInt(w, 16));
  const [head, tail] = hex.split('::') as [string, string | undefined];
  const left = words(head);
  const right = words(tail);
  const count = v4 ? 6 : 8;
  const all = [...left, ...new Array<number>(Math.max(0, count - left.length - right.length)).fill(0), ...right];
  const out = Buffer.alloc(16);
  all.forEach((w, i) => out.writeUInt16BE(w, i * 2));
  if (v4) Buffer.from(v4.split('.').map(Number)).copy(out, 12);
  return out;
}

const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [derTrue] : []), octets(value));
}

/** SHA-1 of the subjectPublicKey bits (RFC 5280 4.2.1.2, method 1): for P-256, the 65-byte point that ends the SPKI. */
function keyId(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha1')
    .update(spki.subarray(spki.length - 65))
    .digest();
}

function leafExtensions(options: LeafOptions): Buffer[] {
  const names = [
    ...(options.dnsNames ?? []).map((value) => tlv(0x82, Buffer.from(value, 'ascii'))),
    ...(options.ipAddresses ?? []).map((value) => tlv(0x87, ipBytes(value))),
  ];
  const extensions = [
    extension('2.5.29.19', true, seq()), // basicConstraints: not a CA
    extension('2.5.29.15', true, bits(Buffer.from([0xa0]), 5)), // keyUsage: digitalSignature, keyEncipherment
    extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
  ];
  if (names.length > 0) extensions.push(extension('2.5.29.17', false, seq(...names)));
  return extensions;
}

function validity(options: { validDays?: number; notBefore?: Date }): Buffer {
  const notBefore = options.notBefore ?? new Date(Date.now() - 60 * 60 * 1000);
  return seq(time(notBefore), time(new Date(notBefore.getTime() + (options.validDays ?? 365) * DAY_MS)));
}

/** A positive 16-byte serial with a non-zero top byte, so its DER form is minimal. */
function serial(): Buffer {
  const b = randomBytes(16);
  b[0] = (b[0]! & 0x3f) | 0x40;
  return tlv(0x02, b);
}

interface CertificateFields {
  subject: string;
  issuer: string;
  publicKey: KeyObject;
  signingKey: KeyObject;
  validity: Buffer;
  extensions: Buffer[];
}

function certificateDer(f: CertificateFields): Buffer {
  const tbs = seq(
    explicit(0, tlv(0x02, Buffer.from([2]))), // v3
    serial(),
    ecdsaWithSha256,
    name(f.issuer),
    f.validity,
    name(f.subject),
    f.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, seq(...f.extensions)),
  );
  return seq(tbs, ecdsaWithSha256, bits(sign('sha256', tbs, f.signingKey)));
}

function newKeys(): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return new Promise((resolve, reject) =>
    generateKeyPair('ec', { namedCurve: 'P-256' }, (err, publicKey, privateKey) =>
      err ? reject(err) : resolve({ publicKey, privateKey }),
    ),
  );
}

function finish(der: Buffer, privateKey: KeyObject): GeneratedCertificate {
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    fingerprint: formatFingerprint(createHash('sha256').update(der).digest()),
  };
}

export async function createCa(commonName = 'Egress Desk Test CA', validDays = 365): Promise<GeneratedCa> {
  const keys = await newKeys();
  const der = certificateDer({
    subject: commonName,
    issuer: commonName,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    validity: validity({ validDays }),
    extensions: [
      extension('2.5.29.19', true, seq(derTrue)), // basicConstraints: a CA
      extension('2.5.29.15', true, bits(Buffer.from([0x06]), 1)), // keyUsage: keyCertSign, cRLSign
      extension('2.5.29.14', false, octets(keyId(keys.publicKey))), // subjectKeyIdentifier
    ],
  });
  return { ...finish(der, keys.privateKey), signer: { name: commonName, privateKey: keys.privateKey, publicKey: keys.publicKey } };
}

export async function createLeaf(ca: GeneratedCa, options: LeafOptions): Promise<GeneratedCertificate> {
  const keys = await newKeys();
  const der = certificateDer({
    subject: options.commonName,
    issuer: ca.signer.name,
    publicKey: keys.publicKey,
    signingKey: ca.signer.privateKey,
    validity: validity(options),
    // authorityKeyIdentifier: [0] keyIdentifier of the CA's key.
    extensions: [...leafExtensions(options), extension('2.5.29.35', false, seq(tlv(0x80, keyId(ca.signer.publicKey))))],
  });
  return finish(der, keys.privateKey);
}

/** A self-signed leaf, like a fresh Proxmox host's `pve-ssl.pem` seen without its cluster CA. */
export async function createSelfSigned(options: LeafOptions): Promise<GeneratedCertificate> {
  const keys = await newKeys();
  const der = certificateDer({
    subject: options.commonName,
    issuer: options.commonName,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    validity: validity(options),
    extensions: leafExtensions(options),
  });
  return finish(der, keys.privateKey);
}
