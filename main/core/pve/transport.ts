/**
 * One HTTPS exchange with Proxmox: auth header, per-call timeout combined
 * with the caller's signal, a size bound on every answer (answer-size.ts),
 * non-2xx to ApiError, network failures to TransportError, and one debug
 * log line per call. Knows nothing about
 * endpoints; client.ts does.
 */
import type { Readable } from 'node:stream';
import type { CallOptions } from './api';
import { Agent, request, type Dispatcher } from 'undici';
import type { Logger } from '../../log/logger';
import { redactSecrets } from '../../log/secrets';
import { apiErrorFromAnswer } from './answer';
import { answerBoundOf, readBounded } from './answer-size';
import { createVerifyingConnector, CONNECT_TIMEOUT_MS } from './connector';
import { NodeGate } from './node-gate';
import { Pace, type PaceClass, type PaceOptions, type PaceStats } from './pace';
import { SingleFlight } from './single-flight';
import { ApiError, ClassifiedError, TlsVerificationError, TransportError, type CallSite } from './errors';
import { fillPath, queryString, type PathParams } from './path';
import type { TlsChoice } from './tls-choice';
import { authorizationHeader, readToken, type TokenSource } from './token';

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface TransportOptions {
  /** `https://host:8006`; requests go under `/api2/json`. */
  baseUrl: string;
  tls: TlsChoice;
  token: TokenSource;
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Requests in flight at once per Proxmox node (default 4); calls not addressed to a node are not limited. */
  maxRequestsPerNode?: number;
  /**
   * Issue 11: at most this many requests per node in any window (pace.ts; DEFAULT_PACE is 3 per second, one per
   * pveproxy worker). Off when not given; the app's setting (under load) and why are in
   * main/services/clusters/client-policy.ts. Tests that run the simulator a thousand times faster than real time
   * would also wait on the wall clock.
   */
  pace?: PaceOptions | false;
  /**
   * The node whose pveproxy the URL reaches: requests that name no node count against its pace (default: their own,
   * until the client learns it: client.ts apiNode(), from GET /cluster/status's `local` flag).
   */
  apiNode?: string;
  /** Identical concurrent GETs share one request (single-flight.ts); default on. */
  shareReads?: boolean;
  logger: Logger;
}

export interface Exchange {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path template under /api2/json, e.g. `/nodes/{node}/status`. */
  template: string;
  params?: PathParams;
  query?: Record<string, string | number | undefined>;
  form?: Record<string, string | number>;
  upload?: { contentType: string; contentLength: number; stream: Readable };
  signal?: AbortSignal;
  /** A read no operation waits on: paced as a poll (pace.ts). */
  background?: boolean | undefined;
  /** A read a loop repeats: held to the node's pace always (pace.ts, issue 22). */
  loop?: boolean | undefined;
}

/** What a call's options put on its exchange: its signal, and how the pace treats it. */
export function exchangeOptions(o: CallOptions | undefined): Pick<Exchange, 'signal' | 'background' | 'loop'> {
  return { signal: o?.signal, background: o?.background, loop: o?.loop };
}

export interface Transport {
  /** The body text of a 2xx answer; throws ApiError, TransportError, TlsVerificationError, TokenFileError. */
  send(exchange: Exchange): Promise<string>;
  /** The most requests that were in flight at once, per node. */
  peakRequestsPerNode(): Record<string, number>;
  /** Per node, how many requests waited for the pace; and how many GETs joined an identical one. */
  paceStats(): { pace: Record<string, PaceStats>; sharedReads: number };
  /** An operation starts (pace.ts operation()); call the returned function when it ends. */
  operation(): () => void;
  /** From now on, requests that name no node count against this node's pace. */
  setApiNode(node: string): void;
  close(): Promise<void>;
}

/** The POSTs that start a copy of a VM's disks (pace.ts PaceClass `copy`). */
const DISK_COPIES: ReadonlySet<string> = new Set(['/nodes/{node}/qemu/{vmid}/clone', '/nodes/{node}/qemu/{vmid}/migrate']);

/**
 * Which queue a request waits in at the pace: disk copies, other writes, then reads an operation waits on, then the
 * inventory's background polls. Task listings and status calls are reads: one listing tells every create on the node that its
 * clone, upload or start ended (a clone's end seen late holds its storage's copy slot), and the agent read is a
 * create's address step. The inventory's listing and mark reads (`background`) wait for all of them.
 */
export function paceClassOf(ex: Pick<Exchange, 'method' | 'template' | 'query' | 'background'>): PaceClass {
  if (ex.method === 'POST' && DISK_COPIES.has(ex.template ?? '')) return 'copy';
  if (ex.method !== 'GET') return 'write';
  // The inventory's reads (its listing, its mark reads) say so; the same listing read by a create's lookup or by
  // placement is on a create's critical path.
  if (ex.background) return 'poll';
  return 'read';
}

const never = new AbortController().signal;

function baseOrigin(baseUrl: string): URL {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:') throw new Error(`the Proxmox URL must use https, not ${url.protocol}`);
  return url;
}

export function createTransport(options: TransportOptions): Transport {
  const origin = baseOrigin(options.baseUrl);
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const agent = new Agent({
    connect: createVerifyingConnector(options.tls, options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS),
    allowH2: false,
    keepAliveTimeout: 30_000,
    connections: 8,
    // The whole-call budget is enforced by the signal below; these only stop undici's own 300 s defaults.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  if (options.tls.mode === 'insecure') {
    options.logger.warn('TLS verification is OFF for this Proxmox connection: anyone on the path can read the token', {
      host: origin.host,
    });
  }

  const gate = new NodeGate(options.maxRequestsPerNode);

  const pace = options.pace ? new Pace(options.pace) : undefined;
  let apiNode = options.apiNode;
  const flights = options.shareReads === false ? undefined : new SingleFlight();

  async function send(ex: Exchange): Promise<string> {
    const node = typeof ex.params?.node === 'string' ? ex.params.node : undefined;
    if (ex.method !== 'GET' || !flights) {
      if (ex.method === 'GET') return exchange(ex);
      // Before and after: a GET sent while the write is on the wire is not shared with one sent after it.
      flights?.wrote(node);
      try {
        return await exchange(ex);
      } finally {
        flights?.wrote(node);
      }
    }
    const path = fillPath(ex.template, ex.params);
    try {
      return await flights.run(`${path}${queryString(ex.query)}`, ex.template, node, (signal) => exchange({ ...ex, signal }), ex.signal);
    } catch (err) {
      if (ex.signal?.aborted) throw new TransportError('aborted', 'the request was cancelled', { method: ex.method, path });
      throw err;
    }
  }

  async function exchange(ex: Exchange): Promise<string> {
    const path = fillPath(ex.template, ex.params);
    const call: CallSite = { method: ex.method, path };
    const started = performance.now();
    const node = ex.params?.node;
    let timeout: AbortSignal | undefined;
    let leave: (() => void) | undefined;
    let status: number | string = 'error';
    try {
      ex.signal?.throwIfAborted();
      // Waiting for the node's turn (pace, then the in-flight gate) is not the request's time: both drain on
      // their own (the pace by the clock, the gate as requests end within their timeout), so the timeout below
      // counts from the moment the request leaves.
      if (pace) await pace.take(typeof node === 'string' ? node : (apiNode ?? ''), paceClassOf(ex), ex.signal, ex.loop === true);
      if (typeof node === 'string') leave = await gate.enter(node, ex.signal ?? never);
      timeout = AbortSignal.timeout(timeoutMs);
      const signal = ex.signal ? AbortSignal.any([ex.signal, timeout]) : timeout;
      const token = await readToken(options.token);
      const headers: Record<string, string> = { authorization: authorizationHeader(token), accept: 'application/json' };
      let body: Dispatcher.DispatchOptions['body'];
      if (ex.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(Object.entries(ex.form).map(([k, v]): [string, string] => [k, String(v)])).toString();
      } else if (ex.upload) {
        headers['content-type'] = ex.upload.contentType;
        headers['content-length'] = String(ex.upload.contentLength);
        body = ex.upload.stream;
      }
      const res = await request(new URL(`/api2/json${path}${queryString(ex.query)}`, origin), {
        method: ex.method,
        headers,
        body,
        signal,
        dispatcher: agent,
      });
      status = res.statusCode;
      // Never more than the route's bound (answer-size.ts): an endless answer is refused, not buffered.
      const text = await readBounded(res.body, res.headers['content-length'], answerBoundOf(ex.template).bytes, call);
      if (res.statusCode < 200 || res.statusCode >= 300) {
        throw apiErrorFromAnswer(res.statusCode, res.statusText, text, call);
      }
      return text;
    } catch (err) {
      throw toClientError(err, call, { cancelled: ex.signal?.aborted === true, timedOut: timeout?.aborted === true, timeoutMs });
    } finally {
      leave?.();
      options.logger.debug('pve call', {
        method: ex.method,
        path: ex.template,
        status,
        ms: Math.round(performance.now() - started),
      });
    }
  }

  return {
    send,
    peakRequestsPerNode: () => gate.peaks(),
    paceStats: () => ({ pace: pace?.stats() ?? {}, sharedReads: flights?.joined ?? 0 }),
    operation: () => pace?.operation() ?? (() => {}),
    setApiNode: (node) => {
      apiNode = node;
    },
    close: () => agent.close(),
  };
}

interface AbortState {
  cancelled: boolean;
  timedOut: boolean;
  timeoutMs: number;
}

/** Anything thrown by a call, as the client's classified errors; the raw error is never passed on (it may hold headers). */
function toClientError(err: unknown, call: CallSite, state: AbortState): Error {
  if (err instanceof TlsVerificationError) return new TlsVerificationError(err.reason, err.message, call);
  if (err instanceof ClassifiedError) return err;
  if (err instanceof ApiError) return err;
  if (state.cancelled) return new TransportError('aborted', 'the request was cancelled', call);
  if (state.timedOut) return new TransportError('timeout', `Proxmox did not answer within ${Math.round(state.timeoutMs / 1000)} s`, call);
  const code = (err as { code?: unknown }).code;
  const text = redactSecrets(err instanceof Error ? err.message : String(err));
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return new TransportError('connect', `could not connect within the time allowed (${text})`, call);
  if (typeof code === 'string' && /^(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPROTO|ERR_SSL_.*)$/.test(code)) {
    return new TransportError('connect', `could not connect to Proxmox (${code})`, call);
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new TransportError('timeout', 'Proxmox stopped answering mid-response', call);
  }
  if (typeof code === 'string' && /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(code)) {
    return new TransportError('reset', 'the connection to Proxmox was cut', call);
  }
  return new TransportError('protocol', `the request failed: ${text.slice(0, 200)}`, call);
}
