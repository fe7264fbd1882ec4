/**
 * `GET /version` without any token, over the TLS choice that verified: the
 * doctor's first contact when no secret is known yet. A Proxmox API answers
 * 401 (F22), which proves the URL is one and says a token is needed.
 */
import { Agent, request } from 'undici';
import { apiErrorFromAnswer, createVerifyingConnector, isApiError, type TlsChoice, TransportError } from '../../core';

const call = { method: 'GET', path: '/version' };

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
    const body = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) return;
    throw apiErrorFromAnswer(res.statusCode, res.statusText, body, call);
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
