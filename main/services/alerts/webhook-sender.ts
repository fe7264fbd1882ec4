/**
 * Posts one webhook request through undici: a timeout per attempt, a
 * bounded retry with backoff for what may pass (no answer, 429, 5xx), and
 * every failure classified with a hint. A 4xx other than 429 is not tried
 * again: the same request would be refused the same way.
 *
 * The request's headers hold the target's token; no error text is built
 * from them. Of the answer, at most MAX_ANSWER_BYTES are read (a 2xx's body
 * is not needed, a refusal's only for its reason), and only the sanitised
 * reason of webhook-answer.ts, secrets cut, reaches an error.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { AppError } from '../../errors/app-error';
import { readAtMost } from '../../net/read-at-most';
import { answerReason, MAX_ANSWER_BYTES } from './webhook-answer';
import type { WebhookRequest } from './webhook-formats';

export interface SendPolicy {
  /** Per attempt, connect to the end of the answer; default 10 s. */
  timeoutMs: number;
  /** Attempts in all; default 3. */
  attempts: number;
  /** The wait before attempt n+1 is backoffMs[n-1] (the last one repeats); default 2 s, then 8 s. */
  backoffMs: readonly number[];
  sleep: (ms: number) => Promise<void>;
}

export const defaultSendPolicy: SendPolicy = {
  timeoutMs: 10_000,
  attempts: 3,
  backoffMs: [2_000, 8_000],
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
};

export interface SendResult {
  status: number;
  attempts: number;
}

/** One agent for every webhook: keep-alive to a home server between alerts, closed with the service. */
export function createWebhookAgent(timeoutMs = defaultSendPolicy.timeoutMs): Agent {
  return new Agent({ connect: { timeout: timeoutMs }, allowH2: false, keepAliveTimeout: 30_000 });
}

export async function sendWebhook(
  req: WebhookRequest,
  dispatcher: Dispatcher,
  policy: SendPolicy = defaultSendPolicy,
  signal?: AbortSignal,
): Promise<SendResult> {
  let last: AppError | undefined;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    if (attempt > 1) await untilAborted(policy.sleep(policy.backoffMs[Math.min(attempt - 2, policy.backoffMs.length - 1)] ?? 0), signal);
    if (signal?.aborted) break;
    const outcome = await attemptOnce(req, dispatcher, policy.timeoutMs, signal);
    if (typeof outcome === 'number') return { status: outcome, attempts: attempt };
    last = outcome;
    if (outcome.kind !== 'transient') break;
  }
  throw last ?? new AppError('transient', `The webhook to ${hostOf(req.url)} was not sent: the app is closing.`, 'Nothing to do.');
}

/** The status of a 2xx answer, or the classified failure. */
async function attemptOnce(
  req: WebhookRequest,
  dispatcher: Dispatcher,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<number | AppError> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const host = hostOf(req.url);
  try {
    const res = await request(req.url, {
      method: 'POST',
      headers: req.headers,
      body: req.body,
      dispatcher,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    // Read even for a 2xx (a small body left unread would hold the kept-alive connection), never past the bound.
    const body = await readAtMost(res.body, MAX_ANSWER_BYTES);
    if (res.statusCode >= 200 && res.statusCode < 300) return res.statusCode;
    const type = res.headers['content-type'];
    return answerFailure(res.statusCode, host, answerReason(Array.isArray(type) ? type[0] : type, body));
  } catch (e) {
    const code = (e as { code?: string }).code ?? (e as Error).name;
    if (timeout.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new AppError(
        'transient',
        `${host} did not answer the webhook within ${Math.round(timeoutMs / 1000)} s.`,
        'Check that the server is up and reachable from this computer; the next alert tries again.',
      );
    }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      return new AppError('permanent', `The host ${host} of the webhook is not known.`, 'Check the server address in Settings > Alerts.');
    }
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/i.test(code)) {
      return new AppError(
        'permanent',
        `The TLS certificate of ${host} is not trusted (${code}).`,
        "Give the server a certificate this computer trusts (e.g. from Let's Encrypt), or use its http:// address inside your network.",
      );
    }
    return new AppError(
      'transient',
      `The webhook could not reach ${host} (${code}).`,
      'Check that the server runs and the address and port are right; the app tries again a few times.',
    );
  }
}

function answerFailure(status: number, host: string, reason: string | undefined): AppError {
  const said = reason ? ` It said: "${reason}".` : '';
  if (status === 429 || status >= 500) {
    return new AppError(
      'transient',
      `${host} answered ${status} to the webhook.${said}`,
      'The server is busy or failing; the app tries again a few times.',
    );
  }
  if (status === 401 || status === 403) {
    return new AppError(
      'permanent',
      `${host} refused the webhook's token (${status}).${said}`,
      "Enter the token again in Settings > Alerts: an ntfy access token (tk_…), a Gotify application token, or the generic target's Bearer token.",
    );
  }
  if (status === 404) {
    return new AppError(
      'not-found',
      `${host} has no such endpoint (404).${said}`,
      'Check the server URL (and the ntfy topic) in Settings > Alerts.',
    );
  }
  return new AppError(
    'permanent',
    `${host} refused the webhook (${status}).${said}`,
    "Check the target's URL and format in Settings > Alerts.",
  );
}

/** A backoff that ends early when the app closes. */
function untilAborted(wait: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return wait;
  if (signal.aborted) return Promise.resolve();
  return Promise.race([wait, new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))]);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}
