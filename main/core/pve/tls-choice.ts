/**
 * How the client trusts the Proxmox server, and the check that runs on a
 * finished handshake before any request byte is written (so a token never
 * reaches a server that failed verification). Node verifies the chain
 * during the handshake only when asked to reject; we connect without
 * rejecting and decide here, which lets a pin accept a self-signed
 * certificate and lets every failure describe the certificate it saw.
 */
import { checkServerIdentity, type PeerCertificate, type TLSSocket } from 'node:tls';
import { normaliseFingerprint } from '../../tls/certificates';
import { describePeerCertificate, summariseCertificate } from '../../tls/describe';
import { TlsVerificationError } from './failures';

export type TlsChoice = (
  { mode: 'system' } | { mode: 'ca'; caPem: string } | { mode: 'pin'; fingerprint: string } | { mode: 'insecure' }
) & {
  /** Verify the certificate against this name instead of the URL's host (connect to an address the certificate does not list). */
  serverName?: string;
};

/** Why the certificate was refused, or undefined when it is accepted. */
export function verifyPeer(choice: TlsChoice, socket: TLSSocket, host: string): TlsVerificationError | undefined {
  if (choice.mode === 'insecure') return undefined;
  const peer = socket.getPeerCertificate(true) as PeerCertificate | undefined;
  if (!peer || !peer.raw) return new TlsVerificationError('invalid', 'The server presented no certificate.');
  const offered = describePeerCertificate(peer);
  if (choice.mode === 'pin') {
    const expected = normaliseFingerprint(choice.fingerprint);
    if (expected === offered.fingerprint) return undefined;
    return new TlsVerificationError(
      'fingerprint',
      `The server's certificate does not match the pinned fingerprint. Expected SHA-256 ${expected ?? choice.fingerprint}; the certificate offers ${summariseCertificate(offered)}.`,
    );
  }
  if (!socket.authorized) {
    const code = String(socket.authorizationError ?? 'unknown error');
    const trusted = choice.mode === 'ca' ? 'the configured CA certificate' : "the system's trusted roots";
    const reason = /CERT_HAS_EXPIRED|CERT_NOT_YET_VALID/.test(code) ? 'invalid' : 'unknown-ca';
    return new TlsVerificationError(
      reason,
      `The server's certificate does not verify against ${trusted} (${code}). The certificate offers ${summariseCertificate(offered)}.`,
    );
  }
  const name = choice.serverName ?? host;
  const mismatch = checkServerIdentity(name.replace(/^\[|\]$/g, ''), peer);
  if (!mismatch) return undefined;
  const names = offered.subjectAltNames.length > 0 ? offered.subjectAltNames.join(', ') : `CN=${offered.subjectCommonName ?? '(none)'}`;
  return new TlsVerificationError(
    'hostname',
    `The server's certificate is not valid for ${name}: it holds ${names}. Connect with one of those names, or set the TLS server name to one of them. The certificate offers ${summariseCertificate(offered)}.`,
  );
}

/** Trust material for the handshake: a CA bundle replaces the system roots. */
export function caOption(choice: TlsChoice): string | undefined {
  return choice.mode === 'ca' ? choice.caPem : undefined;
}
