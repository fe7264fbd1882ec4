/**
 * The doctor's TLS step: look at the certificate before any token is sent,
 * and decide whether the trust the admin chose (or none yet) holds. A pin
 * that no longer matches is a blocking warning with both fingerprints,
 * never a silent re-trust.
 */
import { type TlsChoice, TransportError } from '../../core';
import { normaliseFingerprint } from '../../tls/certificates';
import { fetchServerCertificate, type CertificateProbe } from './tls-probe';
import { AppError } from '../../errors/app-error';
import type { TlsOffer, TlsSection } from '../../../shared/channels/doctor';
import { blocked, passed } from './section';

export interface TlsOutcome {
  section: TlsSection;
  /** The choice that verified: later steps run with it. Absent when the admin must decide first. */
  choice?: TlsChoice;
}

type Data = TlsSection['data'];

const compareHint =
  'Compare the fingerprint with the one Proxmox shows (node → System → Certificates, or `pvenode cert info` on the node) before trusting it.';

/** DNS names of the certificate: what the server-name override may be set to. */
function dnsNames(probe: CertificateProbe): string[] {
  return probe.certificate.subjectAltNames.filter((n) => n.startsWith('DNS:')).map((n) => n.slice(4));
}

function namesText(probe: CertificateProbe): string {
  const names = probe.certificate.subjectAltNames.map((n) => n.replace(/^DNS:|^IP Address:/, ''));
  return names.length > 0 ? names.join(', ') : `only CN=${probe.certificate.subjectCommonName ?? '(none)'}`;
}

function baseData(probe: CertificateProbe, offers: TlsOffer[]): Data {
  const data: Data = {
    certificate: probe.certificate,
    checkedName: probe.checkedName,
    hostnameMatches: probe.hostnameMatches,
    verifiesAgainstSystemRoots: probe.verifiesAgainstSystemRoots,
    offers,
    serverNameCandidates: dnsNames(probe),
  };
  if (probe.verifiesAgainstCa !== undefined) data.verifiesAgainstCa = probe.verifiesAgainstCa;
  return data;
}

function hostnameProblem(probe: CertificateProbe): TlsOutcome {
  const candidates = dnsNames(probe);
  const override = candidates.length > 0 ? `, or keep this address and set the TLS server name to ${candidates.join(' or ')}` : '';
  return {
    section: {
      ...blocked(
        'fail',
        `The certificate is not valid for ${probe.checkedName}: it lists ${namesText(probe)}.`,
        `Connect with one of those names${override}.`,
      ),
      data: baseData(probe, candidates.length > 0 ? ['server-name', 'pin'] : ['pin']),
    },
  };
}

function untrusted(probe: CertificateProbe, chosen: boolean, against: string, code: string | undefined): TlsOutcome {
  const offers: TlsOffer[] = ['pin', 'ca', 'insecure'];
  if (!probe.hostnameMatches && dnsNames(probe).length > 0) offers.push('server-name');
  return {
    section: {
      ...blocked(
        chosen ? 'fail' : 'warn',
        `The certificate is not signed by ${against} (${code ?? 'unknown reason'}). It is ${probe.certificate.subjectCommonName ?? 'unnamed'}, issued by ${probe.certificate.issuerCommonName ?? 'unknown'}, SHA-256 ${probe.certificate.fingerprint}.`,
        `Trust it on first use by pinning this fingerprint, or give the cluster's CA (/etc/pve/pve-root-ca.pem on a node), which keeps working when Proxmox renews the node's certificate. ${compareHint}`,
      ),
      data: baseData(probe, offers),
    },
  };
}

function pinChanged(probe: CertificateProbe, pinned: string): TlsOutcome {
  const presented = probe.certificate.fingerprint;
  return {
    section: {
      ...blocked(
        'warn',
        `The server's certificate changed since it was pinned: pinned SHA-256 ${pinned}, now ${presented}. Egress Desk does not trust the new certificate by itself and sent no token.`,
        `If the certificate was renewed or the node reinstalled, check the new fingerprint on the node and pin it again. If nobody changed it, someone may be intercepting the connection: stop here. ${compareHint}`,
      ),
      data: { ...baseData(probe, ['pin']), changed: { pinned, presented } },
    },
  };
}

function verified(probe: CertificateProbe, choice: TlsChoice, message: string, status: 'ok' | 'warn' = 'ok', hint = ''): TlsOutcome {
  return { section: { ...passed(status, message, hint), data: { ...baseData(probe, []), choice } }, choice };
}

export function decideTls(probe: CertificateProbe, requested: TlsChoice | undefined): TlsOutcome {
  const serverName = requested?.serverName ? { serverName: requested.serverName } : {};
  if (requested?.mode === 'insecure') {
    return verified(
      probe,
      { mode: 'insecure', ...serverName },
      'TLS verification is off: anyone on the network path can read the token.',
      'warn',
      'Pin the fingerprint instead: as easy, and nobody can intercept the connection.',
    );
  }
  if (requested?.mode === 'pin') {
    const pinned = normaliseFingerprint(requested.fingerprint) ?? requested.fingerprint;
    if (pinned !== probe.certificate.fingerprint) return pinChanged(probe, pinned);
    return verified(probe, { mode: 'pin', fingerprint: pinned, ...serverName }, `The certificate matches the pinned SHA-256 ${pinned}.`);
  }
  if (requested?.mode === 'ca') {
    if (!probe.verifiesAgainstCa) return untrusted(probe, true, 'the CA certificate given', probe.caError);
    if (!probe.hostnameMatches) return hostnameProblem(probe);
    return verified(
      probe,
      { mode: 'ca', caPem: requested.caPem, ...serverName },
      `The certificate verifies against the CA given, for ${probe.checkedName}.`,
    );
  }
  if (!probe.verifiesAgainstSystemRoots)
    return untrusted(probe, requested?.mode === 'system', 'a CA this computer trusts', probe.systemRootsError);
  if (!probe.hostnameMatches) return hostnameProblem(probe);
  return verified(
    probe,
    { mode: 'system', ...serverName },
    `The certificate verifies against this computer's trusted CAs, for ${probe.checkedName}.`,
  );
}

function checkedRequest(requested: TlsChoice | undefined): void {
  if (requested?.mode === 'pin' && !normaliseFingerprint(requested.fingerprint)) {
    throw new AppError(
      'invalid-input',
      'The fingerprint is not a SHA-256 fingerprint.',
      'Paste the 64 hex digits (colons optional) shown by Proxmox.',
      'tls.fingerprint',
    );
  }
  if (requested?.mode === 'ca' && !requested.caPem.includes('BEGIN CERTIFICATE')) {
    throw new AppError(
      'invalid-input',
      'The CA is not a PEM certificate.',
      'Paste the content of /etc/pve/pve-root-ca.pem from a node.',
      'tls.caPem',
    );
  }
}

export async function checkTls(
  url: string,
  requested: TlsChoice | undefined,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<TlsOutcome> {
  checkedRequest(requested);
  let probe: CertificateProbe;
  try {
    probe = await fetchServerCertificate(url, {
      serverName: requested?.serverName,
      caPem: requested?.mode === 'ca' ? requested.caPem : undefined,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
  } catch (e) {
    if (!(e instanceof TransportError)) throw e;
    options.signal?.throwIfAborted();
    const host = new URL(url).host;
    return {
      section: {
        ...blocked(
          'fail',
          `No TLS connection to ${host}: ${e.message}.`,
          `Check the URL (https://<node>:8006), that the node is up, and that this computer can reach port 8006.`,
        ),
        data: { offers: [], serverNameCandidates: [] },
      },
    };
  }
  return decideTls(probe, requested);
}
