/**
 * A Proxmox stand-in for client tests: a node:https server on 127.0.0.1
 * that answers with a fixture's exact status, reason phrase and body (F1:
 * the reason phrase carries the error text), and records every request.
 * Faults: cut the connection, or never answer.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fixture } from '../../fixtures';
import { createCa, createLeaf, type GeneratedCa, type GeneratedCertificate, type LeafOptions } from '../../main/tls/certificates';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent, e.g. `/api2/json/cluster/resources?type=vm`. */
  url: string;
  pathname: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type ReplayAnswer =
  | { fixture: string }
  | { status: number; reason: string; body: string }
  | { fault: 'reset' | 'hang' }
  | ((req: RecordedRequest) => ReplayAnswer);

export interface ReplayServer {
  /** `https://127.0.0.1:<port>` */
  baseUrl: string;
  port: number;
  /** The CA that signed the server's certificate (undefined for a caller-supplied self-signed one). */
  ca: GeneratedCa | undefined;
  certificate: GeneratedCertificate;
  requests: RecordedRequest[];
  /** TLS connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections(): number;
  /** Answer `method path` (path under /api2/json, without query) with `answer`; later routes win. */
  route(method: string, path: string | RegExp, answer: ReplayAnswer): void;
  close(): Promise<void>;
}

export interface ReplayOptions {
  /** Names the certificate holds; default localhost and 127.0.0.1. */
  leaf?: LeafOptions;
  /** Use this certificate as is (e.g. a self-signed one). */
  certificate?: GeneratedCertificate;
}

let sharedCa: Promise<GeneratedCa> | undefined;
export const testCa = (): Promise<GeneratedCa> => (sharedCa ??= createCa('Replay Test CA'));

const defaultLeaf: LeafOptions = { commonName: 'localhost', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] };

function proxmoxHeaders(length: number): Record<string, string | number> {
  return {
    'Cache-Control': 'max-age=0',
    Connection: 'Keep-Alive',
    Date: new Date().toUTCString(),
    Pragma: 'no-cache',
    Server: 'pve-api-daemon/3.0',
    'Content-Length': length,
    'Content-Type': 'application/json;charset=UTF-8',
    Expires: new Date().toUTCString(),
  };
}

export async function startReplayServer(options: ReplayOptions = {}): Promise<ReplayServer> {
  const ca = options.certificate ? undefined : await testCa();
  const certificate = options.certificate ?? (await createLeaf(ca!, options.leaf ?? defaultLeaf));
  const routes: { method: string; path: string | RegExp; answer: ReplayAnswer }[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;

  const respond = (answer: ReplayAnswer, rec: RecordedRequest, res: ServerResponse): void => {
    if (typeof answer === 'function') return respond(answer(rec), rec, res);
    if ('fault' in answer) {
      if (answer.fault === 'reset') res.socket?.destroy();
      return; // 'hang': never answer
    }
    const { status, reason, body } = 'fixture' in answer ? fixture(answer.fixture) : answer;
    const bytes = Buffer.from(body, 'utf8');
    res.writeHead(status, reason, proxmoxHeaders(bytes.byteLength));
    res.end(bytes);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'https://replay');
      const rec: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        pathname: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(rec);
      const sub = rec.pathname.replace(/^\/api2\/json/, '');
      const hit = [...routes]
        .reverse()
        .find((r) => r.method === rec.method && (typeof r.path === 'string' ? r.path === sub : r.path.test(sub)));
      respond(hit ? hit.answer : { status: 501, reason: 'no route in replay server', body: '' }, rec, res);
    });
  };

  const server: Server = createServer({ cert: certificate.certPem, key: certificate.keyPem }, handle);
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    connections++;
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `https://127.0.0.1:${port}`,
    port,
    ca,
    certificate,
    requests,
    connections: () => connections,
    route: (method, path, answer) => routes.push({ method, path, answer }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
