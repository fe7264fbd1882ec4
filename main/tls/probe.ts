/**
 * The connect doctor's TLS probe: handshake with a Proxmox URL without
 * sending a request, and report the certificate and whether it would
 * verify: against the system roots, against a given CA, and for the host
 * name (or the TLS server name override).
 */
import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate, type TLSSocket } from 'node:tls';
import { TransportError } from '../core/pve/failures';
import { describePeerCertificate, type CertificateDescription } from './describe';

export interface ProbeOptions {
  /** Check the certificate against this name instead of the URL's host. */
  serverName?: string;
  /** A PEM CA bundle to test the chain against, besides the system roots. */
  caPem?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface CertificateProbe {
  certificate: CertificateDescription;
  /** The name the host check used. */
  checkedName: string;
  verifiesAgainstSystemRoots: boolean;
  /** Why not, as OpenSSL says it (e.g. SELF_SIGNED_CERT_IN_CHAIN). */
  systemRootsError?: string;
  /** Present when a CA was given. */
  verifiesAgainstCa?: boolean;
  caError?: string;
  hostnameMatches: boolean;
  hostnameError?: string;
}

interface Handshake {
  peer: PeerCertificate;
  authorized: boolean;
  error?: string;
}

function handshake(url: URL, options: ProbeOptions, ca: string | undefined): Promise<Handshake> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const servername = options.serverName ?? (isIP(host) ? undefined : host);
  return new Promise((resolve, reject) => {
    const socket: TLSSocket = connect({
      host,
      port: Number(url.port || 8006),
      servername,
      ca,
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
      ALPNProtocols: ['http/1.1'],
    });
    const onAbort = () => socket.destroy(new Error('cancelled'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('close', () => options.signal?.removeEventListener('abort', onAbort));
    socket.setTimeout(options.timeoutMs ?? 10_000, () => {
      socket.destroy();
      reject(new TransportError('connect', `no TLS handshake with ${url.host} within the time allowed`));
    });
    socket.once('secureConnect', () => {
      const result: Handshake = { peer: socket.getPeerCertificate(true), authorized: socket.authorized };
      if (socket.authorizationError) result.error = String(socket.authorizationError);
      socket.destroy();
      resolve(result);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new TransportError(options.signal?.aborted ? 'aborted' : 'connect', `could not reach ${url.host} (${err.code ?? err.message})`),
      );
    });
  });
}

export async function fetchServerCertificate(baseUrl: string, options: ProbeOptions = {}): Promise<CertificateProbe> {
  const url = new URL(baseUrl);
  const system = await handshake(url, options, undefined);
  const checkedName = options.serverName ?? url.hostname.replace(/^\[|\]$/g, '');
  const mismatch = checkServerIdentity(checkedName, system.peer);
  const probe: CertificateProbe = {
    certificate: describePeerCertificate(system.peer),
    checkedName,
    verifiesAgainstSystemRoots: system.authorized,
    hostnameMatches: mismatch === undefined,
  };
  if (system.error) probe.systemRootsError = system.error;
  if (mismatch) probe.hostnameError = mismatch.message;
  if (options.caPem !== undefined) {
    const withCa = await handshake(url, options, options.caPem);
    probe.verifiesAgainstCa = withCa.authorized;
    if (withCa.error) probe.caError = withCa.error;
  }
  return probe;
}
