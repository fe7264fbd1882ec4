/**
 * Issue 24 sections 4 and 5, against Debian's own daemons on loopback, each
 * from its preset rendered with "require a username and password" and its
 * placeholders filled as main fills them (test/support/real-proxy.ts):
 * the app's own check with no credentials, the right ones and wrong ones,
 * over an http target (forwarded, Proxy-Authorization on the request) and an
 * https one (CONNECT, or SOCKS5's RFC 1929). Each preset with credentials is
 * read by its daemon too; Dante's username method takes the `$1$` hash the
 * app makes for `chpasswd -e`. The HTTP presets hide the client from the
 * target (no X-Forwarded-For, no Via) and open CONNECT only to SSL ports.
 * After a rotate's seed (the credential store's pending set), each daemon
 * refuses the old credentials and accepts the new.
 */
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkProxy } from '../../../../main/services/proxy-check/check';
import { createProxyCredentialStore, newPassword } from '../../../../main/services/proxy-credentials/store';
import { createLogger } from '../../../../main/log/logger';
import type { SecretVault } from '../../../../main/services/secrets/vault';
import { CREDENTIAL_PLACEHOLDERS } from '../../../../shared/domain/proxy-credentials';
import { presets, type Preset } from '../../../../renderer/src/views/create/presets';
import { createCa, createLeaf } from '../../../../main/tls/certificates';
import {
  checkConfig,
  missing,
  scratch,
  squidConfig,
  danteUsersMissing,
  freePort,
  presetUserData,
  startDante,
  startMicrosocks,
  startSquid,
  startTinyproxy,
  tinyproxyConfig,
  type RealProxy,
  type TestCredentials,
} from '../../../support/real-proxy';

const host = '127.0.0.1';
const right: TestCredentials = { username: 'egress', password: newPassword() };
const wrong: TestCredentials = { username: 'egress', password: newPassword() };

/** An http echo that answers with the caller's address and remembers each request's headers. */
let echo: HttpServer;
let echoUrl: string;
const seen: IncomingHttpHeaders[] = [];
let secure: HttpsServer;
let secureUrl: string;
let securePort: number;
let ca: string;
beforeAll(async () => {
  echo = createHttpServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'text/plain' }).end((req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''));
  });
  await new Promise<void>((resolve) => echo.listen(0, host, resolve));
  echoUrl = `http://${host}:${(echo.address() as AddressInfo).port}/ip`;
  const authority = await createCa();
  const leaf = await createLeaf(authority, { commonName: 'target', ipAddresses: [host] });
  ca = authority.certPem;
  secure = createHttpsServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end((req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''));
  });
  await new Promise<void>((resolve) => secure.listen(0, host, resolve));
  securePort = (secure.address() as AddressInfo).port;
  secureUrl = `https://${host}:${securePort}/ip`;
});
afterAll(async () => {
  echo.closeAllConnections();
  secure.closeAllConnections();
  await Promise.all([new Promise((resolve) => echo.close(resolve)), new Promise((resolve) => secure.close(resolve))]);
});

let proxy: RealProxy | undefined;
afterEach(async () => {
  await proxy?.stop();
  proxy = undefined;
});

async function started(start: () => Promise<RealProxy>): Promise<RealProxy> {
  proxy = await start();
  console.log(`running ${proxy.version} on 127.0.0.1:${proxy.port}`);
  return proxy;
}

const check = (p: RealProxy, targetUrl: string, credentials?: TestCredentials) =>
  checkProxy({ host, port: p.port, protocol: p.protocol, targetUrl, timeoutMs: 5_000, ca, credentials });

/** None and wrong ones: the credentials class, in its words; right ones: through, with the egress the target saw. */
async function expectCredentialsEnforced(p: RealProxy, urls: string[]) {
  for (const url of urls) {
    const none = await check(p, url);
    expect(none, `${url}, no credentials`).toMatchObject({ reachable: false, problem: { kind: 'permanent', stage: 'handshake' } });
    expect(none.problem!.message, url).toMatch(/asks for a username and password/);
    const refused = await check(p, url, wrong);
    expect(refused, `${url}, wrong credentials`).toMatchObject({ reachable: false, problem: { kind: 'permanent', stage: 'handshake' } });
    expect(refused.problem!.message, url).toMatch(/refused the username and password/);
    expect(JSON.stringify(refused)).not.toContain(wrong.password);
    const through = await check(p, url, right);
    expect(through, `${url}, right credentials`).toMatchObject({ reachable: true, httpStatus: 200, egressAddress: '127.0.0.1' });
  }
}

describe.skipIf(missing('squid') !== undefined)('Squid, from its preset with credentials', () => {
  it('reads the preset config with basic_ncsa_auth and its htpasswd file without a complaint (squid -k parse)', async () => {
    const folder = scratch('squid-auth-parse');
    try {
      const file = join(folder.dir, 'squid.conf');
      writeFileSync(file, squidConfig(3128, folder.dir, { credentials: right }));
      const verdict = await checkConfig('squid', file);
      expect(verdict.ok, verdict.output).toBe(true);
    } finally {
      folder.remove();
    }
  });

  it('asks for the credentials (407), refuses wrong ones, lets the right ones through over http and CONNECT', async () => {
    const p = await started(() => startSquid({ credentials: right, sslPorts: [securePort] }));
    await expectCredentialsEnforced(p, [echoUrl, secureUrl]);
  });

  it('hides the client: the target sees no X-Forwarded-For and no Via', async () => {
    const p = await started(() => startSquid({ credentials: right }));
    seen.length = 0;
    expect(await check(p, echoUrl, right)).toMatchObject({ reachable: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toHaveProperty('x-forwarded-for');
    expect(seen[0]).not.toHaveProperty('via');
    expect(seen[0]).not.toHaveProperty('proxy-authorization');
  });

  it("opens CONNECT to SSL ports only (Debian's rule): a tunnel to another port is refused", async () => {
    const p = await started(() => startSquid({ credentials: right }));
    const result = await check(p, secureUrl, right);
    // Squid's own page (proxy-page.ts): the proxy refused, not the target.
    expect(result).toMatchObject({ reachable: false, problem: { kind: 'permanent', stage: 'handshake' } });
    expect(result.problem!.message).toMatch(/\(Squid\) refused the request for .* with its own error page \(HTTP 403, ERR_ACCESS_DENIED\)/);
  });
});

describe.skipIf(missing('tinyproxy') !== undefined)('tinyproxy, from its preset with credentials', () => {
  it('starts on the preset config with BasicAuth', async () => {
    const folder = scratch('tinyproxy-auth-parse');
    try {
      const file = join(folder.dir, 'tinyproxy.conf');
      writeFileSync(file, tinyproxyConfig(18_888, folder.dir, right));
      const verdict = await checkConfig('tinyproxy', file);
      expect(verdict.ok, verdict.output).toBe(true);
    } finally {
      folder.remove();
    }
  });

  it('asks for the credentials (407), refuses wrong ones, lets the right ones through over http and CONNECT', async () => {
    const p = await started(() => startTinyproxy(right));
    await expectCredentialsEnforced(p, [echoUrl, secureUrl]);
  });

  it('hides the client: the target sees no Via', async () => {
    const p = await started(() => startTinyproxy(right));
    seen.length = 0;
    expect(await check(p, echoUrl, right)).toMatchObject({ reachable: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toHaveProperty('via');
    expect(seen[0]).not.toHaveProperty('x-forwarded-for');
    expect(seen[0]).not.toHaveProperty('proxy-authorization');
  });
});

describe.skipIf(missing('microsocks') !== undefined)("microsocks, from its preset's unit and environment file", () => {
  it('offers no way in without credentials, refuses wrong ones (RFC 1929), lets the right ones through', async () => {
    const p = await started(() => startMicrosocks(right));
    await expectCredentialsEnforced(p, [echoUrl, secureUrl]);
  });
});

describe.skipIf(danteUsersMissing() !== undefined)("Dante's username method, with the app's $1$ hash for a system user (the guide's recipe)", () => {
  it('offers no way in without credentials, refuses wrong ones (RFC 1929), lets the right ones through', async () => {
    const p = await started(() => startDante('pass', right));
    await expectCredentialsEnforced(p, [echoUrl, secureUrl]);
  });
});

/**
 * After a rotate (issue 24): the credential store's rotate (rotateBegin, its pending set filled into the preset as the
 * rotate's seed is, fillPending), the daemon started from that seed's config: the old credentials are refused in the
 * auth class, the new accepted, through the app's own check.
 */
describe('after a rotate, each real daemon refuses the old credentials and accepts the new', () => {
  const logger = createLogger({ sinks: [] });
  const vault: SecretVault = {
    backend: async () => ({ kind: 'keyring', protected: true, detail: 'test' }),
    encrypt: async (text) => `enc:${Buffer.from(text).toString('hex')}`,
    decrypt: async (text) => Buffer.from(text.slice(4), 'hex').toString('utf8'),
  };

  /** The old set (a create's fill), then the rotate's pending set and its seed's user-data for the preset. */
  async function rotated(id: Preset['id'], port: number) {
    const store = createProxyCredentialStore({ vault, logger, tokenStorage: () => 'keyring', vm: () => ({ uid: 'uid-r' }) });
    const text = presets.find((p) => p.id === id)!.render(port, { credentials: true });
    await store.fill('c', 'uid-r', 'rot', text, true);
    const old = (await store.credentialsOf('c', 100))!;
    await store.rotateBegin('c', 'uid-r', 'rot');
    const fresh = (await store.pendingOf('c', 'uid-r'))!;
    const seed = await store.fillPending('c', 'uid-r', 'rot', text);
    expect(seed).not.toContain(old.password);
    return { old, fresh, seed };
  }

  async function expectRotated(p: RealProxy, old: TestCredentials, fresh: TestCredentials) {
    for (const url of [echoUrl, secureUrl]) {
      const refused = await check(p, url, old);
      expect(refused, `${url}, the old credentials`).toMatchObject({ reachable: false, problem: { kind: 'permanent', stage: 'handshake' } });
      expect(refused.problem!.message, url).toMatch(/refused the username and password/);
      expect(await check(p, url, fresh), `${url}, the new credentials`).toMatchObject({ reachable: true, egressAddress: '127.0.0.1' });
    }
  }

  it.skipIf(missing('squid') !== undefined)('Squid', async () => {
    const { old, fresh, seed } = await rotated('squid', 3128);
    expect(seed).toMatch(/egress:\$apr1\$/);
    const p = await started(() => startSquid({ credentials: fresh, sslPorts: [securePort] }));
    await expectRotated(p, old, fresh);
  });

  it.skipIf(missing('tinyproxy') !== undefined)('tinyproxy', async () => {
    const port = await freePort();
    const { old, fresh, seed } = await rotated('tinyproxy', port);
    // The daemon runs the rotate's seed itself: the password goes in clear, so the user-data is byte for byte the test's.
    expect(presetUserData('tinyproxy', port, fresh)).toBe(seed);
    const p = await started(() => startTinyproxy(fresh));
    await expectRotated(p, old, fresh);
  });

  it.skipIf(missing('microsocks') !== undefined)('microsocks', async () => {
    const port = await freePort();
    const { old, fresh, seed } = await rotated('socks5', port);
    expect(presetUserData('socks5', port, fresh)).toBe(seed);
    const p = await started(() => startMicrosocks(fresh));
    await expectRotated(p, old, fresh);
  });

  it.skipIf(danteUsersMissing() !== undefined)("Dante's username method", async () => {
    const store = createProxyCredentialStore({ vault, logger, tokenStorage: () => 'keyring', vm: () => ({ uid: 'uid-d' }) });
    // No Dante preset here (a custom user-data with the placeholders, the guide's recipe): the crypt placeholder.
    const text = `#cloud-config\nruncmd:\n  - [sh, -c, "echo '${CREDENTIAL_PLACEHOLDERS.user}:${CREDENTIAL_PLACEHOLDERS.crypt}' | chpasswd -e"]\n`;
    await store.fill('c', 'uid-d', 'rot', text, true);
    const old = (await store.credentialsOf('c', 100))!;
    await store.rotateBegin('c', 'uid-d', 'rot');
    const fresh = (await store.pendingOf('c', 'uid-d'))!;
    expect(await store.fillPending('c', 'uid-d', 'rot', text)).toMatch(/egress:\$1\$/);
    const p = await started(() => startDante('pass', fresh));
    await expectRotated(p, old, fresh);
  });
});
