/**
 * The connect doctor's TLS probe: handshake with a Proxmox URL without
 * sending a request, and report the certificate and whether it would
 * verify: against the system roots, against a given CA, and for the host
 * name (or the TLS server name override).
 */
import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate, type TLSSocket } from 'node:tls';
import { TransportError } from '../../core';
import { describePeerCertificate, type CertificateDescription } from '../../tls/describe';

export interface ProbeOptions {
  /** Check the certificate against this name instead of the URL's host. */
  serverName?: string;
  /** A PEM CA bundle to test the chain against, besides the system roots. */
  caPem?: string;
  /** For the whole probe (both handshakes when a CA is given); default 10 s. */
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

/**
 * One TLS handshake, given up when `deadline` aborts: the probe's one
 * deadline (its timeout and the caller's signal together), shared by both
 * handshakes so the whole probe ends within `timeoutMs`.
 */
function handshake(url: URL, options: ProbeOptions, ca: string | undefined, deadline: AbortSignal): Promise<Handshake> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const servername = options.serverName ?? (isIP(host) ? undefined : host);
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const stopped = () =>
    options.signal?.aborted
      ? new TransportError('aborted', `the TLS check of ${url.host} was cancelled`)
      : new TransportError('connect', `no TLS handshake with ${url.host} within ${formatSeconds(timeoutMs)}`);
  if (deadline.aborted) return Promise.reject(stopped());
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
    const onAbort = () => {
      socket.destroy();
      reject(stopped());
    };
    deadline.addEventListener('abort', onAbort, { once: true });
    socket.once('close', () => deadline.removeEventListener('abort', onAbort));
    socket.once('secureConnect', () => {
      const result: Handshake = { peer: socket.getPeerCertificate(true), authorized: socket.authorized };
      if (socket.authorizationError) result.error = String(socket.authorizationError);
      socket.destroy();
      resolve(result);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      reject(deadline.aborted ? stopped() : new TransportError('connect', `could not reach ${url.host} (${err.code ?? err.message})`));
    });
  });
}

const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

const formatSeconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`);

export async function fetchServerCertificate(baseUrl: string, options: ProbeOptions = {}): Promise<CertificateProbe> {
  const url = new URL(baseUrl);
  const clock = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  const deadline = options.signal ? AbortSignal.any([options.signal, clock]) : clock;
  const system = await handshake(url, options, undefined, deadline);
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
    const withCa = await handshake(url, options, options.caPem, deadline);
    probe.verifiesAgainstCa = withCa.authorized;
    if (withCa.error) probe.caError = withCa.error;
  }
  return probe;
}
