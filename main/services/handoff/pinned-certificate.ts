/**
 * Issue 26: the operator takes a CA, not a pin, so a profile that pins the
 * node certificate by fingerprint hands over that very certificate. It is
 * read from the server in one handshake (no request byte sent) and used
 * only when its SHA-256 matches the pin: a different certificate now is the
 * pin's own alarm, never something to export.
 */
import { isIP } from 'node:net';
import { connect, type PeerCertificate } from 'node:tls';
import { normaliseFingerprint } from '../../tls/certificates';
import { fingerprintOfDer } from '../../tls/describe';
import { AppError } from '../../errors/app-error';

export type PinnedPemReader = (url: string, fingerprint: string, serverName?: string) => Promise<string>;

const pem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;

export const readPinnedPem: PinnedPemReader = (baseUrl, fingerprint, serverName) => {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = connect({
      host,
      port: Number(url.port || 8006),
      servername: serverName ?? (isIP(host) ? undefined : host),
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    });
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new AppError('transient', `${url.host} did not finish a TLS handshake within 10 s, so its certificate could not be read.`, 'Check that the cluster answers, then try again.'));
    });
    socket.once('secureConnect', () => {
      const peer = socket.getPeerCertificate(false) as PeerCertificate | undefined;
      socket.destroy();
      if (!peer?.raw) return reject(new AppError('transient', `${url.host} presented no certificate.`, 'Check the cluster URL, then try again.'));
      if (fingerprintOfDer(peer.raw) !== normaliseFingerprint(fingerprint))
        return reject(
          new AppError(
            'permanent',
            `${url.host} now presents a certificate other than the one this cluster pins, so Egress Desk will not hand it to the operator as its CA.`,
            'Open the cluster in Egress Desk and confirm or refuse the new certificate first.',
          ),
        );
      resolve(pem(peer.raw));
    });
    socket.once('error', (err: NodeJS.ErrnoException) =>
      reject(new AppError('transient', `Could not reach ${url.host} to read its certificate (${err.code ?? err.message}).`, 'Check that the cluster answers, then try again.')),
    );
  });
};
