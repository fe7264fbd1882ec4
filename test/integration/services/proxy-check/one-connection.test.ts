/**
 * Issue 22 items 10 and 12: the check opens one connection to the proxy and
 * no more, and a proxy that misbehaves after a good start is named for the
 * step it reached. Before the fix a SOCKS5 proxy that flooded after its
 * success reply drew a new connection from the check each time undici threw
 * the flooded one away (5,500 to 14,800 in 10 s), and the result blamed the
 * TCP connect; one that hung up part way was "not a SOCKS5 proxy", permanent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkProxy } from '../../../../main/services/proxy-check/check';
import { closedPort } from '../../../support/services/proxy-check/loopback';
import { startHostileSocks5, type HostileProxy, type Misbehaviour } from './hostile-proxies';

const host = '127.0.0.1';
let proxy: HostileProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describe('a SOCKS5 proxy that misbehaves after a good start', () => {
  it.each([
    [
      'floods the connection after its success reply',
      'flood',
      'permanent',
      'request',
      (where: string, target: string) =>
        `The proxy at ${where} opened the way to ${target}, but what came back through it is not an HTTP answer.`,
    ],
    [
      'hangs up right after its success reply',
      'close-after-reply',
      'transient',
      'request',
      (where: string, target: string) =>
        `The proxy at ${where} stopped part way: it opened the way to ${target}, then closed the connection before ${target} answered.`,
    ],
    [
      'hangs up after the greeting, before its reply to CONNECT',
      'close-after-greeting',
      'transient',
      'handshake',
      (where: string, target: string) =>
        `The SOCKS5 proxy at ${where} stopped part way: it answered the greeting, then closed the connection before it reported a connection to ${target}.`,
    ],
    [
      'hangs up half way through its answer to the greeting',
      'close-mid-greeting',
      'transient',
      'handshake',
      (where: string) => `The SOCKS5 proxy at ${where} stopped part way: it began answering the greeting, then closed the connection.`,
    ],
  ] as const)('%s: one connection, the step it reached named', async (_name, how: Misbehaviour, kind, stage, message) => {
    proxy = await startHostileSocks5(how);
    const targetUrl = `http://127.0.0.1:${await closedPort()}/ip`;
    const result = await checkProxy({ host, port: proxy.port, protocol: 'socks5', targetUrl, timeoutMs: 3_000 });
    // Let any connection the check might still open arrive before counting.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(proxy.hits).toBe(1);
    expect(result).toMatchObject({ reachable: false, problem: { kind, stage } });
    expect(result.problem?.message).toBe(message(`${host}:${proxy.port}`, new URL(targetUrl).host));
    expect(result.connectMs).toBeGreaterThanOrEqual(0);
  });
});
