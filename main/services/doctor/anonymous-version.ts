/**
 * `GET /version` without any token, over the TLS choice that verified: the
 * doctor's first contact when no secret is known yet. A Proxmox API answers
 * 401 (F22), which proves the URL is one and says a token is needed. The
 * URL may name any server, so its answer is read only up to a bound (an
 * error of Proxmox's is a few hundred bytes): a longer one is judged by its
 * status alone.
 */
import { Agent, request } from 'undici';
import { apiErrorFromAnswer, createVerifyingConnector, isApiError, type TlsChoice, TransportError } from '../../core';
import { readAtMost } from '../../net/read-at-most';

const call = { method: 'GET', path: '/version' };
/** What is read of the answer at most: /version's answer and Proxmox's errors are far shorter. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Resolves when Proxmox answers 2xx; throws the ApiError of any other answer, or a TransportError. */
export async function anonymousVersion(baseUrl: string, tls: TlsChoice, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const agent = new Agent({ connect: createVerifyingConnector(tls, timeoutMs), allowH2: false });
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const res = await request(new URL('/api2/json/version', baseUrl), {
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      dispatcher: agent,
    });
    const body = await readAtMost(res.body, MAX_ANSWER_BYTES);
    if (res.statusCode >= 200 && res.statusCode < 300) return;
    // A cut body is not Proxmox's error: the status and its reason phrase say it.
    throw apiErrorFromAnswer(res.statusCode, res.statusText, body.cut ? '' : body.bytes.toString('utf8'), call);
  } catch (e) {
    if (isApiError(e)) throw e;
    throw new TransportError(
      signal?.aborted ? 'aborted' : 'connect',
      `no answer to GET /version (${e instanceof Error ? e.message : String(e)})`,
      call,
    );
  } finally {
    await agent.close();
  }
}
