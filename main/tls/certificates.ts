/**
 * Certificate tools: make a CA, a leaf signed by it, or a self-signed leaf
 * (the simulator's own certificate, test servers), and describe a peer's
 * certificate in the terms an admin compares with the Proxmox web UI.
 */
import { webcrypto } from 'node:crypto';
// @peculiar/x509 (through tsyringe) needs the Reflect metadata API loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

// Node's webcrypto is a full WebCrypto; its type differs from the DOM one x509 declares.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[1] & object);

const keyAlgorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signingAlgorithm = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface GeneratedCertificate {
  certPem: string;
  keyPem: string;
  /** SHA-256 of the DER certificate as Proxmox shows it: `AA:BB:…` uppercase. */
  fingerprint: string;
}

/** A CA also keeps its key object so it can sign leaves. */
export interface GeneratedCa extends GeneratedCertificate {
  readonly signer: { name: string; privateKey: CryptoKey; publicKey: CryptoKey };
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

async function fingerprintOf(cert: x509.X509Certificate): Promise<string> {
  return formatFingerprint(new Uint8Array(await cert.getThumbprint('SHA-256')));
}

async function keyPemOf(key: CryptoKey): Promise<string> {
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
}

function validity(options: { validDays?: number; notBefore?: Date }): { notBefore: Date; notAfter: Date } {
  const notBefore = options.notBefore ?? new Date(Date.now() - 60 * 60 * 1000);
  return { notBefore, notAfter: new Date(notBefore.getTime() + (options.validDays ?? 365) * DAY_MS) };
}

function leafExtensions(options: LeafOptions): x509.Extension[] {
  const names: x509.JsonGeneralName[] = [
    ...(options.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(options.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
  ];
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
  ];
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names));
  return extensions;
}

async function newKeys(): Promise<CryptoKeyPair> {
  return webcrypto.subtle.generateKey(keyAlgorithm, true, ['sign', 'verify']);
}

async function finish(cert: x509.X509Certificate, privateKey: CryptoKey): Promise<GeneratedCertificate> {
  return { certPem: cert.toString('pem'), keyPem: await keyPemOf(privateKey), fingerprint: await fingerprintOf(cert) };
}

export async function createCa(commonName = 'Egress Desk Test CA', validDays = 365): Promise<GeneratedCa> {
  const keys = await newKeys();
  const name = `CN=${commonName}`;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name,
    keys,
    signingAlgorithm,
    ...validity({ validDays }),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { ...(await finish(cert, keys.privateKey)), signer: { name, privateKey: keys.privateKey, publicKey: keys.publicKey } };
}

export async function createLeaf(ca: GeneratedCa, options: LeafOptions): Promise<GeneratedCertificate> {
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${options.commonName}`,
    issuer: ca.signer.name,
    publicKey: keys.publicKey,
    signingKey: ca.signer.privateKey,
    signingAlgorithm,
    ...validity(options),
    extensions: [...leafExtensions(options), await x509.AuthorityKeyIdentifierExtension.create(ca.signer.publicKey)],
  });
  return finish(cert, keys.privateKey);
}

/** A self-signed leaf, like a fresh Proxmox host's `pve-ssl.pem` seen without its cluster CA. */
export async function createSelfSigned(options: LeafOptions): Promise<GeneratedCertificate> {
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${options.commonName}`,
    keys,
    signingAlgorithm,
    ...validity(options),
    extensions: leafExtensions(options),
  });
  return finish(cert, keys.privateKey);
}
