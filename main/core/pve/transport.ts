/**
 * One HTTPS exchange with Proxmox: auth header, per-call timeout combined
 * with the caller's signal, non-2xx to ApiError, network failures to
 * TransportError, and one debug log line per call. Knows nothing about
 * endpoints; client.ts does.
 */
import type { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import type { Logger } from '../../log/logger';
import { redactSecrets } from '../../log/secrets';
import { apiErrorFromAnswer } from './answer';
import { createVerifyingConnector, CONNECT_TIMEOUT_MS } from './connector';
import { NodeGate } from './node-gate';
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
}

export interface Transport {
  /** The body text of a 2xx answer; throws ApiError, TransportError, TlsVerificationError, TokenFileError. */
  send(exchange: Exchange): Promise<string>;
  /** The most requests that were in flight at once, per node. */
  peakRequestsPerNode(): Record<string, number>;
  close(): Promise<void>;
}

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

  async function send(ex: Exchange): Promise<string> {
    const path = fillPath(ex.template, ex.params);
    const call: CallSite = { method: ex.method, path };
    const started = performance.now();
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = ex.signal ? AbortSignal.any([ex.signal, timeout]) : timeout;
    const node = ex.params?.node;
    let leave: (() => void) | undefined;
    let status: number | string = 'error';
    try {
      signal.throwIfAborted();
      if (typeof node === 'string') leave = await gate.enter(node, signal);
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
      const text = await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) {
        throw apiErrorFromAnswer(res.statusCode, res.statusText, text, call);
      }
      return text;
    } catch (err) {
      throw toClientError(err, call, { cancelled: ex.signal?.aborted === true, timedOut: timeout.aborted, timeoutMs });
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

  return { send, peakRequestsPerNode: () => gate.peaks(), close: () => agent.close() };
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
