/**
 * Describes a peer certificate (from node:tls) in the terms an admin can
 * compare with Proxmox's web UI: subject CN, SANs, issuer, validity and the
 * SHA-256 fingerprint in Proxmox's `AA:BB:…` form.
 */
import { createHash } from 'node:crypto';
import type { PeerCertificate } from 'node:tls';
import { formatFingerprint } from './certificates';

export interface CertificateDescription {
  subjectCommonName: string | undefined;
  /** Subject alternative names as `DNS:name` / `IP Address:addr`, as OpenSSL prints them. */
  subjectAltNames: string[];
  issuerCommonName: string | undefined;
  validFrom: string;
  validTo: string;
  fingerprint: string;
  selfSigned: boolean;
}

function commonName(part: PeerCertificate['subject'] | undefined): string | undefined {
  const cn = part?.CN as string | string[] | undefined;
  return Array.isArray(cn) ? cn[0] : cn;
}

export function fingerprintOfDer(der: Uint8Array): string {
  return formatFingerprint(createHash('sha256').update(der).digest());
}

export function describePeerCertificate(cert: PeerCertificate): CertificateDescription {
  const sans = cert.subjectaltname ? cert.subjectaltname.split(/,\s*/).filter((s) => s.length > 0) : [];
  // Recompute from the raw DER: Node's fingerprint256 is the same form, but the DER is the source of truth.
  const fingerprint = cert.raw ? fingerprintOfDer(cert.raw) : cert.fingerprint256;
  const subject = JSON.stringify(cert.subject ?? {});
  const issuer = JSON.stringify(cert.issuer ?? {});
  return {
    subjectCommonName: commonName(cert.subject),
    subjectAltNames: sans,
    issuerCommonName: commonName(cert.issuer),
    validFrom: cert.valid_from,
    validTo: cert.valid_to,
    fingerprint,
    selfSigned: subject === issuer,
  };
}

/** One line for an error message: what the certificate offers. */
export function summariseCertificate(d: CertificateDescription): string {
  const sans = d.subjectAltNames.length > 0 ? d.subjectAltNames.join(', ') : 'none';
  return `subject CN=${d.subjectCommonName ?? '(none)'}, names: ${sans}, issuer CN=${d.issuerCommonName ?? '(none)'}, SHA-256 fingerprint ${d.fingerprint}`;
}
