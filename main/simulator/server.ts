/**
 * The HTTPS front: pveproxy's order of checks (token, route, faults, node
 * reachability, parameters, privileges, handler) and its wire format:
 * `{"data": …}` as application/json;charset=UTF-8, errors with the text as
 * reason phrase (F1), HTTP/1.1 only (F18).
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../log/logger';
import { parseBody } from './body';
import { WholeBody, type SimContext } from './context';
import { bareError, PveHttpError, textError } from './errors';
import type { RequestFault } from './faults';
import { verifyParams } from './params';
import type { RequestLog, RequestRecord } from './requests';
import type { Router } from './router';
import { fixture } from '../../fixtures';

const PREFIX = '/api2/json';
const JSON_TYPE = 'application/json;charset=UTF-8';

export interface ServerDeps {
  sim: SimContext;
  router: Router;
  requests: RequestLog;
  logger: Logger | undefined;
}

function send(res: ServerResponse, status: number, reason: string, body: string): void {
  const headers: Record<string, string | number> = {
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'max-age=0',
    Pragma: 'no-cache',
  };
  if (body.length > 0) headers['Content-Type'] = JSON_TYPE;
  res.writeHead(status, reason.replace(/[^\t\x20-\x7e]/g, ' '), headers);
  res.end(body);
}

/** One VM entry of `/cluster/resources` (the capture's shape), repeated by an `endless` answer. */
const ENDLESS_ENTRY =
  '{"id":"qemu/100","type":"qemu","vmid":100,"name":"ubuntu-vm-1","node":"pv1-1","status":"stopped","template":0,"maxmem":2147483648,"mem":0,"maxdisk":34359738368,"disk":0,"maxcpu":2,"cpu":0,"uptime":0,"netin":0,"netout":0,"diskread":0,"diskwrite":0},';

/** Writes an endless body, honouring back-pressure (and the rate, if given), until the client goes away. */
function sendEndless(res: ServerResponse, fault: Extract<RequestFault, { kind: 'endless' }>, record: RequestRecord): void {
  const { bytesPerSecond, declaredBytes } = fault;
  const length: Record<string, number> = declaredBytes === undefined ? {} : { 'Content-Length': declaredBytes };
  res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'max-age=0', ...length });
  const chunk = Buffer.from(ENDLESS_ENTRY.repeat(Math.ceil(65536 / ENDLESS_ENTRY.length)));
  record.bytesSent = 0;
  let stopped = false;
  res.on('close', () => {
    stopped = true;
    record.cut = true;
  });
  const started = Date.now();
  const write = (piece: Buffer) => {
    record.bytesSent! += piece.length;
    return res.write(piece);
  };
  const pump = (): void => {
    while (!stopped) {
      if (bytesPerSecond !== undefined) {
        const due = (record.bytesSent! / bytesPerSecond) * 1000 - (Date.now() - started);
        if (due > 0) {
          setTimeout(pump, Math.ceil(due));
          return;
        }
      }
      if (!write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  write(Buffer.from('{"data":['));
  pump();
}

function sendFault(res: ServerResponse, fault: RequestFault, record: RequestRecord): boolean {
  if (fault.kind === 'error') {
    const f = fixture(fault.fixture);
    send(res, f.status, f.reason, f.body);
    return true;
  }
  if (fault.kind === 'unreachable') {
    const e = bareError(fault.status === 596 ? 'nodeTimeout' : 'nodeRefused');
    send(res, e.status, e.reason, e.body);
    return true;
  }
  if (fault.kind === 'hang') return true; // the socket stays open until close() destroys it
  if (fault.kind === 'answer') {
    send(res, 200, 'OK', JSON.stringify(fault.body));
    return true;
  }
  if (fault.kind === 'endless') {
    sendEndless(res, fault, record);
    return true;
  }
  if (fault.kind === 'reset') {
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': 4096 });
    res.write('{"data":[{"vmid":');
    setTimeout(() => res.socket?.destroy(), 5);
    return true;
  }
  return false;
}

async function answer(deps: ServerDeps, req: IncomingMessage, res: ServerResponse, record: RequestRecord): Promise<void> {
  const { sim, router } = deps;
  const url = new URL(req.url ?? '/', 'https://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  record.query = Object.fromEntries(url.searchParams);
  const rel = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) || '/' : url.pathname;
  record.rawPath = rel;
  const segments = rel
    .split('/')
    .slice(1)
    .map((s) => decodeURIComponent(s));
  record.path = `/${segments.join('/')}`;
  record.route = record.path;
  if (segments[0] === 'nodes' && segments[1]) record.node = segments[1];
  // pveproxy's workers (issue 11, load.ts): the path's node serves it when it answers, else the API's node.
  const served = record.node && sim.state.node(record.node)?.online ? record.node : sim.apiNode;
  record.loadNode = served;
  record.latencyMs = await sim.load.admit(served);

  const body = method === 'POST' || method === 'PUT' ? await parseBody(req) : { fields: {} };
  record.form = body.fields;
  record.formKeys = Object.keys(body.fields);
  record.tokenId = sim.tokens.authenticate(req.headers.authorization);

  const match = url.pathname.startsWith(PREFIX) ? router.match(method, segments) : undefined;
  if (!match) throw textError('notImplemented', 501, { "'GET /nodes/pv1-1/foo'": `'${method} ${record.path}'` });
  record.route = match.route.path;

  const vmid = match.path.vmid !== undefined ? Number(match.path.vmid) : undefined;
  const fault = sim.faults.forRequest({ method, route: match.route.path, path: record.path, node: match.path.node, vmid });
  if (fault?.kind === 'delay') await new Promise((r) => setTimeout(r, fault.ms));
  else if (fault && sendFault(res, fault, record)) {
    record.status =
      fault.kind === 'error' ? fixture(fault.fixture).status : fault.kind === 'unreachable' ? (fault.status ?? 595) : fault.kind === 'endless' || fault.kind === 'answer' ? 200 : 0;
    return;
  }

  if (match.path.node !== undefined) {
    const node = sim.state.node(match.path.node);
    if (!node) throw textError('unknownNode', 500, { 'pv9-9': match.path.node });
    if (!node.online) throw bareError('nodeRefused');
  }
  const params = { ...record.query, ...body.fields };
  verifyParams({ ...params, ...match.path }, match.route.params, match.route.indexed);
  const routeReq = { sim, path: match.path, params, tokenId: record.tokenId, ...(body.file ? { file: body.file } : {}) };
  match.route.check?.(routeReq);
  const data = await match.route.handle(routeReq);
  const out = data instanceof WholeBody ? data.body : { data: data ?? null };
  record.status = 200;
  send(res, 200, 'OK', JSON.stringify(out));
}

export function createSimServer(deps: ServerDeps, tls: { key: string; cert: string }): { server: Server; sockets: Set<Socket> } {
  const sockets = new Set<Socket>();
  const server = createServer({ key: tls.key, cert: tls.cert, ALPNProtocols: ['http/1.1'] }, (req, res) => {
    const record: RequestRecord = {
      method: (req.method ?? 'GET').toUpperCase(),
      path: req.url ?? '/',
      rawPath: req.url ?? '/',
      route: req.url ?? '/',
      query: {},
      form: {},
      formKeys: [],
      status: 0,
    };
    answer(deps, req, res, record)
      .catch((err: unknown) => {
        const e = err instanceof PveHttpError ? err : undefined;
        if (!e) deps.logger?.error('simulator handler failed', { err, path: record.path });
        const status = e?.status ?? 500;
        record.status = status;
        if (!res.headersSent) send(res, status, e?.reason ?? 'Internal Server Error', e?.body ?? '');
      })
      .finally(() => deps.requests.add(record));
  });
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return { server, sockets };
}
