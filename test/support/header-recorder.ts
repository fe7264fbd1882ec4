/**
 * An HTTPS server on loopback that answers every request with 401 and
 * remembers what it was sent (method, path, headers): the "other host" a
 * stored token secret must never reach. Its self-signed certificate's
 * fingerprint is what a doctor run or profile pins to reach it.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSelfSigned } from '../../main/tls/certificates';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface HeaderRecorder {
  url: string;
  fingerprint: string;
  requests: RecordedRequest[];
  /** Everything any request carried in its headers, as one text to search. */
  headerText(): string;
  close(): Promise<void>;
}

export async function startHeaderRecorder(): Promise<HeaderRecorder> {
  const cert = await createSelfSigned({ commonName: 'recorder.invalid', ipAddresses: ['127.0.0.1'] });
  const requests: RecordedRequest[] = [];
  const server = createServer({ key: cert.keyPem, cert: cert.certPem }, (req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: { ...req.headers } });
    req.resume();
    res.writeHead(401, 'authentication failure', { 'content-type': 'application/json' });
    res.end('{"data":null}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    fingerprint: cert.fingerprint,
    requests,
    headerText: () => requests.map((r) => JSON.stringify(r.headers)).join('\n'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
