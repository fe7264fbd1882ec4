/**
 * The proxy check: open a TCP connection to the proxy's port (is anything
 * there?), then fetch the target URL through it (does it proxy?) and read
 * the address the target saw. The VM having an address is not the same as
 * the proxy working; this tells the two apart.
 */
import { isIP } from 'node:net';
import { request } from 'undici';
import type { ProxyCheckResult, ProxyProtocol } from '../../../shared/channels/proxy-check';
import { connectProblem, requestProblem, statusProblem } from './classify';
import { connectTcp, dispatcherFor } from './dispatchers';
import { egressAddressOf } from './egress';

export interface ProxyCheckRequest {
  host: string;
  port: number;
  protocol: ProxyProtocol;
  targetUrl: string;
  /** Per stage; default 10 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The target's answer is only read for the address: a few kilobytes at most. */
const MAX_BODY = 4096;

export async function checkProxy(req: ProxyCheckRequest): Promise<ProxyCheckResult> {
  const timeoutMs = req.timeoutMs ?? 10_000;
  const base: ProxyCheckResult = { reachable: false, address: req.host, port: req.port, protocol: req.protocol, targetUrl: req.targetUrl };
  const where = `${isIP(req.host) === 6 ? `[${req.host}]` : req.host}:${req.port}`;
  const target = new URL(req.targetUrl).host;

  const connectStart = performance.now();
  try {
    (await connectTcp(req.host, req.port, timeoutMs)).destroy();
  } catch (e) {
    return { ...base, problem: connectProblem(e, where) };
  }
  const connectMs = Math.round(performance.now() - connectStart);

  const dispatcher = dispatcherFor({ host: req.host, port: req.port, protocol: req.protocol }, timeoutMs);
  const started = performance.now();
  try {
    const signal = req.signal ? AbortSignal.any([req.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
    const answer = await request(req.targetUrl, { dispatcher, signal, headers: { 'user-agent': 'Egress Desk proxy check' } });
    const body = await readSome(answer.body);
    const latencyMs = Math.round(performance.now() - started);
    const result: ProxyCheckResult = { ...base, connectMs, latencyMs, httpStatus: answer.statusCode };
    if (answer.statusCode >= 400) return { ...result, problem: statusProblem(answer.statusCode, where, target) };
    const egressAddress = egressAddressOf(body);
    return egressAddress ? { ...result, reachable: true, egressAddress } : { ...result, reachable: true };
  } catch (e) {
    return { ...base, connectMs, problem: requestProblem(e, req.protocol, where, target) };
  } finally {
    await dispatcher.destroy().catch(() => undefined);
  }
}

async function readSome(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_BODY) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, MAX_BODY).toString('utf8');
}
