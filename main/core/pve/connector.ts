/**
 * The undici connector: TCP + TLS with a 10 s connect budget, HTTP/1.1 via
 * ALPN (F18), then `verifyPeer` on the finished handshake. Only a socket
 * that passed is handed to undici, so no request byte precedes the check.
 */
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { buildConnector } from 'undici';
import { verifyPeer, caOption, type TlsChoice } from './tls-choice';

export const CONNECT_TIMEOUT_MS = 10_000;

export function createVerifyingConnector(choice: TlsChoice, connectTimeoutMs = CONNECT_TIMEOUT_MS): buildConnector.connector {
  const base = buildConnector({
    rejectUnauthorized: false,
    ca: caOption(choice),
    allowH2: false,
    // Node would fold the name check into `authorized`; verifyPeer checks the name itself, against the override if set.
    checkServerIdentity: () => undefined,
    // No TLS session resumption: every new connection shows its certificate to verifyPeer.
    maxCachedSessions: 0,
    timeout: connectTimeoutMs,
    keepAlive: true,
  });
  return (options, callback) => {
    // SNI must be a DNS name; the override (if any) is also what the certificate is checked against.
    const sni = choice.serverName ?? (isIP(options.hostname.replace(/^\[|\]$/g, '')) ? undefined : options.hostname);
    base({ ...options, servername: sni }, (err, socket) => {
      if (err) return callback(err, null);
      const problem = verifyPeer(choice, socket as TLSSocket, options.hostname);
      if (problem) {
        socket.destroy();
        return callback(problem, null);
      }
      callback(null, socket);
    });
  };
}
