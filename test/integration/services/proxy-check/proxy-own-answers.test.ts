/**
 * Issue 24 §5, "the proxy's own error pages are blamed on the target",
 * against the real Squid and tinyproxy from their presets: a proxy that
 * refuses this computer (the presets' allow-list, 403), asks for credentials
 * (407) or cannot reach the target (Squid's 503, tinyproxy's 500) answers
 * with its own page. The check names the proxy, not the target, and says the
 * same for an http target (the page comes instead of the target's answer)
 * as for an https one (it comes instead of the tunnel).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkProxy } from '../../../../main/services/proxy-check/check';
import { startEchoTarget, type Running } from '../../../support/services/proxy-check/loopback';
import { freePort, missing, scratch, type RealProxy } from '../../../support/real-proxy';
import { startSquidWith, startTinyproxyWith } from '../../../support/real-proxy-with';

const host = '127.0.0.1';
let echo: Running;
let closed: number;
const folder = scratch('own-answers');
beforeAll(async () => {
  echo = await startEchoTarget();
  closed = await freePort();
  // Squid's basic_ncsa_auth reads an htpasswd file; the hash is openssl's apr1 (Apache MD5).
  const hash = execFileSync('openssl', ['passwd', '-apr1', 'right-one'], { encoding: 'utf8' }).trim();
  writeFileSync(join(folder.dir, 'htpasswd'), `checker:${hash}\n`, { mode: 0o644 });
});
afterAll(async () => {
  await echo.close();
  folder.remove();
});

let proxy: RealProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

/**
 * The preset's Squid, CONNECT let through to any port: the targets here listen on random ports, and its SSL_ports
 * rule (CONNECT to 443 only, real-daemons-auth.test.ts) would answer every https check with that 403 first.
 */
const squidAnyPort = (adapt: (config: string) => string) =>
  startSquidWith((c) => adapt(c).replace(/^http_access deny CONNECT !SSL_ports\n/m, ''));
/** Without the test's own `acl private_nets src 127.0.0.1`: this computer is outside its allow-list. */
const squidRefusing = () => squidAnyPort((c) => c.replace(/^acl private_nets src 127\.0\.0\.1\n/m, ''));
const squidWithAuth = () =>
  squidAnyPort((c) =>
    c.replace(
      /^http_access allow private_nets$/m,
      [
        `auth_param basic program /usr/lib/squid/basic_ncsa_auth ${join(folder.dir, 'htpasswd')}`,
        'acl authed proxy_auth REQUIRED',
        'http_access deny !authed',
        'http_access allow private_nets',
      ].join('\n'),
    ),
  );
const tinyproxyRefusing = () => startTinyproxyWith((c) => c.replace(/^Allow 127\.0\.0\.1\n/m, ''));
const tinyproxyWithAuth = () => startTinyproxyWith((c) => `${c}BasicAuth checker right-one\n`);

/** The same check for an http target (forwarded) and an https one (CONNECT): one answer for both. */
async function bothPaths(p: RealProxy, port: () => number) {
  console.log(`running ${p.version} on 127.0.0.1:${p.port}`);
  const results = [];
  for (const scheme of ['http', 'https']) {
    const targetUrl = `${scheme}://127.0.0.1:${port()}/ip`;
    results.push(await checkProxy({ host, port: p.port, protocol: 'http', targetUrl, timeoutMs: 5_000 }));
  }
  expect(results[1]!.problem, 'the https check answers as the http one').toEqual(results[0]!.problem);
  return { result: results[0]!, where: `${host}:${p.port}`, target: `127.0.0.1:${port()}` };
}

const refusedWords = (daemon: string, code: string, where: string, target: string) => ({
  kind: 'permanent',
  stage: 'handshake',
  message: `The proxy at ${where} (${daemon}) refused the request for ${target} with its own error page (HTTP 403${code}): its rules do not let this computer, or this target, through.`,
  hint: `The page is the proxy's, not ${target}'s. Check that the proxy's client rules let this computer's address in (Squid's acl and http_access, tinyproxy's Allow; the presets allow only the private networks), and that they allow ${target}'s port.`,
});
const unreachableWords = (daemon: string, status: number, code: string, where: string, target: string) => ({
  kind: 'transient',
  stage: 'request',
  message: `The proxy at ${where} (${daemon}) could not reach ${target} (HTTP ${status}${code}): the error page is the proxy's own, not ${target}'s.`,
  hint: `Check that the VM can reach ${target} (its gateway, DNS and outbound firewall) and that ${target} is up, or try a closer target URL.`,
});
const authWords = (where: string) => ({
  kind: 'permanent',
  stage: 'handshake',
  message: `The proxy at ${where} asks for a username and password (HTTP 407), and the app keeps none for this proxy.`,
});

describe.skipIf(missing('squid') !== undefined)("Squid's own pages", () => {
  it('a client outside the allow-list: 403 ERR_ACCESS_DENIED, the proxy refused, not the target', async () => {
    proxy = await squidRefusing();
    const { result, where, target } = await bothPaths(proxy, () => echo.port);
    expect(result).toMatchObject({ reachable: false, problem: refusedWords('Squid', ', ERR_ACCESS_DENIED', where, target) });
    expect(result.problem?.hint).not.toMatch(/check the target URL/i);
  });

  it('a target nothing listens on: 503 ERR_CONNECT_FAIL, the proxy could not reach it', async () => {
    proxy = await squidAnyPort((c) => c);
    const { result, where, target } = await bothPaths(proxy, () => closed);
    expect(result).toMatchObject({ reachable: false, problem: unreachableWords('Squid', 503, ', ERR_CONNECT_FAIL', where, target) });
  });

  it('credentials asked for: 407, the authentication words', async () => {
    proxy = await squidWithAuth();
    const { result, where } = await bothPaths(proxy, () => echo.port);
    expect(result).toMatchObject({ reachable: false, problem: authWords(where) });
  });
});

describe.skipIf(missing('tinyproxy') !== undefined)("tinyproxy's own pages", () => {
  it('a client outside the allow-list: 403, the proxy refused, not the target', async () => {
    proxy = await tinyproxyRefusing();
    const { result, where, target } = await bothPaths(proxy, () => echo.port);
    expect(result).toMatchObject({ reachable: false, problem: refusedWords('tinyproxy', '', where, target) });
  });

  it('a target nothing listens on: 500, the proxy could not reach it', async () => {
    proxy = await startTinyproxyWith((c) => c);
    const { result, where, target } = await bothPaths(proxy, () => closed);
    expect(result).toMatchObject({ reachable: false, problem: unreachableWords('tinyproxy', 500, '', where, target) });
  });

  it('credentials asked for: 407, the authentication words', async () => {
    proxy = await tinyproxyWithAuth();
    const { result, where } = await bothPaths(proxy, () => echo.port);
    expect(result).toMatchObject({ reachable: false, problem: authWords(where) });
  });
});
