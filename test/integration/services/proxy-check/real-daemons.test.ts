/**
 * Issue 22 items 10 and 12, against Debian's own daemons: the app's check
 * through Squid, tinyproxy, microsocks and Dante on loopback, each from its
 * preset's config where the app has one (see test/support/real-proxy.ts).
 * A working one reports the egress the target saw (127.0.0.1), for an http
 * target and an https one (CONNECT, or TLS inside SOCKS5); a Dante that
 * turns the client away at accept gets the same answer in 20 checks out of
 * 20 (before the fix: "not a SOCKS5 proxy, permanent" or "read ECONNRESET",
 * by chance); a Squid or tinyproxy killed while the answer is on its way is
 * the proxy stopping part way, not the wrong protocol. Each preset's config
 * is read by its own daemon, so a typo in one fails here.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkProxy } from '../../../../main/services/proxy-check/check';
import { createCa, createLeaf } from '../../../../main/tls/certificates';
import { startEchoTarget, type Running } from '../../../support/services/proxy-check/loopback';
import {
  checkConfig,
  danteConfig,
  freePort,
  microsocksArgs,
  missing,
  presetFile,
  presetUserData,
  scratch,
  squidConfig,
  startDante,
  startMicrosocks,
  startSquid,
  startTinyproxy,
  tinyproxyConfig,
  type RealProxy,
} from '../../../support/real-proxy';

const host = '127.0.0.1';
let echo: Running;
let echoUrl: string;
/** An https echo with a certificate from a test CA, reached through CONNECT or SOCKS5. */
let secure: HttpsServer;
let secureUrl: string;
let ca: string;
beforeAll(async () => {
  echo = await startEchoTarget();
  echoUrl = `http://127.0.0.1:${echo.port}/ip`;
  const authority = await createCa();
  const leaf = await createLeaf(authority, { commonName: 'target', ipAddresses: ['127.0.0.1'] });
  ca = authority.certPem;
  secure = createHttpsServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end((req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''));
  });
  await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
  secureUrl = `https://127.0.0.1:${(secure.address() as AddressInfo).port}/ip`;
});
afterAll(async () => {
  secure.closeAllConnections();
  await Promise.all([echo.close(), new Promise((resolve) => secure.close(resolve))]);
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

const check = (p: RealProxy, targetUrl = echoUrl, protocol = p.protocol) =>
  checkProxy({ host, port: p.port, protocol, targetUrl, timeoutMs: 5_000, ca });

/** Reachable over http and over https (CONNECT, or TLS inside the SOCKS5 tunnel), the target seeing 127.0.0.1 each time. */
async function expectReachable(p: RealProxy) {
  for (const url of [echoUrl, secureUrl]) {
    const result = await check(p, url);
    expect(result, url).toMatchObject({ reachable: true, httpStatus: 200, egressAddress: '127.0.0.1' });
  }
}

/**
 * A target that sends its headers and the first bytes of a 64-byte body, then
 * waits; `answering` resolves once it has, so the test can kill the proxy
 * while the answer is on its way.
 */
async function startHalfAnswer(): Promise<{ url: string; answering: Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let answered!: () => void;
  const answering = new Promise<void>((resolve) => (answered = resolve));
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.once('data', () => {
      s.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 64\r\n\r\n127.0.', () => answered());
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/ip`,
    answering,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Kills the proxy once the target's half answer left for it, and a moment later, time to pass it on. */
async function killedMidAnswer(start: () => Promise<RealProxy>) {
  const p = await started(start);
  const half = await startHalfAnswer();
  try {
    const result = check(p, half.url);
    await half.answering;
    await new Promise((resolve) => setTimeout(resolve, 300));
    await p.kill();
    return { result: await result, where: `${host}:${p.port}`, target: new URL(half.url).host };
  } finally {
    await half.close();
  }
}

function expectStoppedMidAnswer({ result, where, target }: Awaited<ReturnType<typeof killedMidAnswer>>) {
  expect(result).toMatchObject({ reachable: false, httpStatus: 200, problem: { kind: 'transient', stage: 'request' } });
  expect(result.problem?.message).toBe(
    `The proxy at ${where} stopped part way: ${target} had begun answering through it when the connection closed.`,
  );
}

/** Squid's access.log once it holds a line matching `line` (it writes a CONNECT when the tunnel closes), or after 5 s. */
async function squidLogWith(p: RealProxy, line: RegExp): Promise<string> {
  const file = join(p.dir, 'access.log');
  for (let waited = 0; ; waited += 50) {
    const log = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (line.test(log) || waited >= 5_000) return log;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A config of `daemon` with one directive misspelt, to see its own check refuse it. */
function misspelt(config: string, word: string): string {
  if (!config.includes(word)) throw new Error(`no ${word} to misspell`);
  return config.replace(word, `${word.slice(0, 2)}x${word.slice(2)}`);
}

describe.skipIf(missing('squid') !== undefined)('Squid, from its preset', () => {
  it('reads the preset config without a complaint (squid -k parse), and refuses one with a typo', async () => {
    const folder = scratch('squid-parse');
    try {
      const good = join(folder.dir, 'good.conf');
      const bad = join(folder.dir, 'bad.conf');
      writeFileSync(good, squidConfig(3128, folder.dir));
      writeFileSync(bad, misspelt(squidConfig(3128, folder.dir), 'http_access'));
      const verdict = await checkConfig('squid', good);
      expect(verdict.ok, verdict.output).toBe(true);
      expect((await checkConfig('squid', bad)).ok).toBe(false);
    } finally {
      folder.remove();
    }
  });

  it('is reachable, and the target saw the egress 127.0.0.1', async () => {
    // The preset's CONNECT goes to SSL_ports only (Debian's rule): the test's https target port is added to them.
    const p = await started(() => startSquid({ sslPorts: [Number(new URL(secureUrl).port)] }));
    await expectReachable(p);
    // A full request each time: Squid logged the GET and the CONNECT (that one once the tunnel closed,
    // a moment after the check), and no client that left before its headers.
    const log = await squidLogWith(p, / CONNECT 127\.0\.0\.1:\d+ /);
    expect(log).toMatch(/ GET http:\/\/127\.0\.0\.1:\d+\/ip /);
    expect(log).not.toMatch(/transaction-end-before-headers/);
  });

  it('killed while the answer is on its way: the proxy stopped part way, transient', async () => {
    expectStoppedMidAnswer(await killedMidAnswer(() => startSquid()));
  });
});

describe.skipIf(missing('tinyproxy') !== undefined)('tinyproxy, from its preset', () => {
  it('starts on the preset config, and stops at once on one with a typo', async () => {
    const folder = scratch('tinyproxy-parse');
    try {
      const port = await freePort();
      const good = join(folder.dir, 'good.conf');
      const bad = join(folder.dir, 'bad.conf');
      writeFileSync(good, tinyproxyConfig(port, folder.dir));
      writeFileSync(bad, misspelt(tinyproxyConfig(port, folder.dir), 'MaxClients'));
      const verdict = await checkConfig('tinyproxy', good);
      expect(verdict.ok, verdict.output).toBe(true);
      expect((await checkConfig('tinyproxy', bad)).ok).toBe(false);
    } finally {
      folder.remove();
    }
  });

  it('is reachable, and the target saw the egress 127.0.0.1', async () => {
    const p = await started(startTinyproxy);
    await expectReachable(p);
    // One connection and a full request: tinyproxy saw no client leave before its request line.
    expect(p.output()).not.toMatch(/closed socket before read/);
  });

  it('killed while the answer is on its way: the proxy stopped part way, transient', async () => {
    expectStoppedMidAnswer(await killedMidAnswer(startTinyproxy));
  });
});

describe.skipIf(missing('microsocks') !== undefined)("microsocks, from its preset's command line", () => {
  it('is reachable, and the target saw the egress 127.0.0.1', async () => {
    expect(microsocksArgs(1080)).toEqual(['-i', '127.0.0.1', '-p', '1080']);
    const p = await started(startMicrosocks);
    await expectReachable(p);
  });

  it('checked as HTTP, says to check the protocol, the same in 5 checks out of 5', async () => {
    const p = await started(startMicrosocks);
    const answers = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const result = await check(p, echoUrl, 'http');
      answers.add(JSON.stringify(result.problem));
    }
    expect([...answers]).toHaveLength(1);
    expect(JSON.parse([...answers][0]!)).toMatchObject({
      kind: 'permanent',
      message: `${host}:${p.port} accepted the connection but did not answer as an HTTP proxy.`,
    });
  });
});

describe.skipIf(missing('danted') !== undefined)("Dante, from its preset's danted.conf", () => {
  it('reads its preset config without a complaint (danted -V), with and without credentials, and refuses one with a typo', async () => {
    const folder = scratch('dante-parse');
    try {
      const good = join(folder.dir, 'good.conf');
      const bad = join(folder.dir, 'bad.conf');
      for (const config of [danteConfig(1080, 'block'), danteConfig(1080, 'pass', { username: 'egress', password: 'x' })]) {
        writeFileSync(good, config);
        const verdict = await checkConfig('danted', good);
        expect(verdict.ok, verdict.output).toBe(true);
      }
      writeFileSync(bad, misspelt(danteConfig(1080, 'block'), 'external'));
      expect((await checkConfig('danted', bad)).ok).toBe(false);
    } finally {
      folder.remove();
    }
  });

  it("names the interface the default route leaves by (the seed's first runcmd line), IPv4's, else IPv6's, and danted reads it", async () => {
    const folder = scratch('dante-external');
    try {
      const text = presetUserData('dante', 1080);
      const { runcmd } = parse(text) as { runcmd: string[] };
      const conf = join(folder.dir, 'danted.conf');
      // A stand-in `ip` answering as a Debian 12 cloud VM's does (the app's network-config matches the NIC by MAC, not name).
      const bin = join(folder.dir, 'bin');
      mkdirSync(bin);
      const routes = (v4: string, v6: string) =>
        writeFileSync(join(bin, 'ip'), `#!/bin/sh\nif [ "$1" = "-6" ]; then echo '${v6}'; else echo '${v4}'; fi\n`, { mode: 0o755 });
      const line = runcmd[0]!.replaceAll('/etc/danted.conf', conf);
      const run = () => execFileSync('/bin/sh', ['-c', line], { env: { PATH: `${bin}:/usr/bin:/bin` } });
      for (const [v4, v6, dev] of [
        ['default via 192.168.1.1 dev ens18 proto dhcp src 192.168.1.50 metric 100', '', 'ens18'],
        ['', 'default via fe80::1 dev enp0s18 proto ra metric 1024 pref medium', 'enp0s18'],
      ]) {
        writeFileSync(conf, presetFile('dante', 1080, '/etc/danted.conf'));
        routes(v4!, v6!);
        run();
        expect(readFileSync(conf, 'utf8')).toMatch(new RegExp(`^external: ${dev}$`, 'm'));
      }
      const lo = readFileSync(conf, 'utf8')
        .replace(/^external: .*$/m, 'external: lo')
        .replace('logoutput: syslog', 'logoutput: stderr');
      writeFileSync(conf, lo);
      const verdict = await checkConfig('danted', conf);
      expect(verdict.ok, verdict.output).toBe(true);
    } finally {
      folder.remove();
    }
  });

  it("relays only to the ports Squid's preset lets a request reach: a CONNECT to SMTP's 25 is the proxy's refusal", async () => {
    const p = await started(() => startDante('pass'));
    const result = await check(p, 'http://127.0.0.1:25/ip');
    expect(result).toMatchObject({ reachable: false });
    // Dante's ruleset answers "not allowed" (RFC 1928 reply 2), not the target's "connection refused" (reply 5).
    expect(result.problem!.message).toBe(
      `The proxy works, but the SOCKS5 proxy could not connect to 127.0.0.1:25: connection not allowed by ruleset.`,
    );
    // Dante writes its block line after the reply is on its way: wait for it rather than read at once.
    await vi.waitFor(() => expect(p.output()).toMatch(/block\(\d+\): tcp\/connect .* -> .* 127\.0\.0\.1\.25/), { timeout: 5000, interval: 50 });
  });

  it('is reachable, and the target saw the egress 127.0.0.1', async () => {
    const p = await started(() => startDante('pass'));
    await expectReachable(p);
  });

  it('turning the client away at accept: refused or dropped, transient, the same in 20 checks out of 20', async () => {
    const p = await started(() => startDante('block'));
    const answers = new Map<string, number>();
    for (let i = 0; i < 20; i++) {
      const result = await check(p);
      const key = JSON.stringify(result.problem);
      answers.set(key, (answers.get(key) ?? 0) + 1);
    }
    expect([...answers.entries()]).toEqual([
      [
        JSON.stringify({
          kind: 'transient',
          stage: 'handshake',
          message: `The proxy at ${host}:${p.port} accepted the connection, then closed it without answering: it refused this computer or dropped the connection.`,
          hint: "Check that the proxy's client rules let this computer in (Squid's acl, tinyproxy's Allow, Dante's client rules) and that it is not at its connection limit; and that this port serves SOCKS5, the protocol of the proxy's preset. Then try again.",
        }),
        20,
      ],
    ]);
  });
});
