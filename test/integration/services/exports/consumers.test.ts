/**
 * Issue 24 §3: each export read by the program a user gives it to. proxychains4 runs curl through the exported
 * proxychains.conf via Debian's Squid (and microsocks with a username and password) on loopback; pacparser
 * evaluates the PAC file for a table of URLs; bash sources the shell lines and `env` reads them back, and curl
 * goes through Squid with them. (Chromium reads the PAC file in pac-chromium.test.ts; the extensions' files are
 * checked against their schemas in extension-formats.test.ts.) Each prints its version.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formats } from '../../../../main/services/exports/formats';
import { exportOptions, httpProxy, socksProxy, HOSTILE_NAME } from '../../../support/export-proxies';
import {
  PROXYCHAINS,
  bashVersion,
  curlVersion,
  pacparserAnswers,
  pacparserMissing,
  pacparserVersion,
  proxychainsMissing,
  proxychainsVersion,
} from '../../../support/exports/consumers';
import { freePort, missing, scratch, startSquid, type RealProxy } from '../../../support/real-proxy';

/**
 * A target on loopback that says which path it was asked for. proxychains reaches it through an HTTP proxy by
 * CONNECT, which Debian's Squid allows to its SSL_ports only (443): it listens on 127.0.0.1:443 where it may
 * (a plain HTTP server there: the tunnel does not care), else on a port the OS picks.
 */
let target: Server;
let targetPort: number;
beforeAll(async () => {
  target = createServer((req, res) => res.end(`target saw ${req.url}`));
  const listen = (port: number) =>
    new Promise<boolean>((resolve) => {
      target.once('error', () => resolve(false));
      target.listen(port, '127.0.0.1', () => resolve(true));
    });
  if (!(await listen(443))) await listen(0);
  targetPort = (target.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => target.close(resolve)));

const folder = scratch('exports');
afterAll(() => folder.remove());

/** Squid's access.log once it names `path`, or after 5 s (it writes a line when the request ends). */
async function squidLog(p: RealProxy, path: string): Promise<string> {
  const file = join(p.dir, 'access.log');
  for (let waited = 0; ; waited += 50) {
    const log = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (log.includes(path) || waited >= 5_000) return log;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const run = (file: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(file, args, { env: { PATH: process.env.PATH, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });

const proxychainsSkip = proxychainsMissing() ?? missing('squid');
describe.skipIf(proxychainsSkip !== undefined)('proxychains4 reads proxychains.conf', () => {
  let squids: RealProxy[] = [];
  beforeAll(async () => {
    console.log(`${proxychainsVersion()}; ${curlVersion()}`);
    squids = await Promise.all([startSquid(), startSquid()]);
    console.log(squids[0]!.version);
  });
  afterAll(() => Promise.all(squids.map((s) => s.stop())));

  it('round_robin_chain: curl reaches the target, one connection through each Squid in turn', async () => {
    const [a, b] = squids as [RealProxy, RealProxy];
    const conf = formats.proxychains.render(
      [
        httpProxy({ name: 'squid-a', host: '127.0.0.1', endpoint: { protocol: 'http', port: a.port } }),
        httpProxy({ name: HOSTILE_NAME, host: '127.0.0.1', endpoint: { protocol: 'http', port: b.port } }),
      ],
      exportOptions({ chain: 'round_robin' }),
    ).text;
    const file = join(folder.dir, 'round-robin.conf');
    writeFileSync(file, conf);
    // Two URLs in one curl, each on a connection of its own: round robin sends them through the two proxies.
    const url = (n: number) => `http://127.0.0.1:${targetPort}/round-robin-${n}`;
    const close = ['-sS', '-H', 'Connection: close'];
    const answer = await run(PROXYCHAINS, ['-f', file, 'curl', ...close, url(1), '--next', ...close, url(2)]);
    expect(answer.stderr).not.toMatch(/error|timeout/i);
    expect(answer.stdout).toBe('target saw /round-robin-1target saw /round-robin-2');
    // Each Squid tunnelled one of the two connections.
    const tunnel = `CONNECT 127.0.0.1:${targetPort}`;
    const logs = await Promise.all([squidLog(a, tunnel), squidLog(b, tunnel)]);
    expect(logs.map((l) => l.split(tunnel).length - 1)).toEqual([1, 1]);
  });

  it('strict_chain through one Squid; a proxy that is down stops curl, said by proxychains', async () => {
    const [a] = squids as [RealProxy];
    const file = join(folder.dir, 'strict.conf');
    writeFileSync(
      file,
      formats.proxychains.render(
        [httpProxy({ host: '127.0.0.1', endpoint: { protocol: 'http', port: a.port } })],
        exportOptions({ chain: 'strict' }),
      ).text,
    );
    const ok = await run(PROXYCHAINS, ['-f', file, 'curl', '-sS', `http://127.0.0.1:${targetPort}/strict`]);
    expect(ok.stdout).toBe('target saw /strict');
    expect(await squidLog(a, `CONNECT 127.0.0.1:${targetPort}`)).toContain(`CONNECT 127.0.0.1:${targetPort}`);

    const down = join(folder.dir, 'down.conf');
    writeFileSync(
      down,
      formats.proxychains.render(
        [httpProxy({ host: '127.0.0.1', endpoint: { protocol: 'http', port: await freePort() } })],
        exportOptions({ chain: 'strict' }),
      ).text,
    );
    const failed = await run(PROXYCHAINS, ['-f', down, 'curl', '-sS', '--max-time', '10', `http://127.0.0.1:${targetPort}/down`]);
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toBe('');
  });

  it.skipIf(missing('microsocks') !== undefined)('carries a SOCKS5 username and password that microsocks checks', async () => {
    const port = await freePort();
    const socks = spawn('/usr/bin/microsocks', ['-i', '127.0.0.1', '-p', String(port), '-u', 'alice', '-P', 'Zx9_-secret'], {
      stdio: 'ignore',
    });
    try {
      await waitForPort(port);
      const proxy = (password: string) =>
        socksProxy({ host: '127.0.0.1', endpoint: { protocol: 'socks5', port }, credentials: { username: 'alice', password } });
      const right = join(folder.dir, 'socks-right.conf');
      writeFileSync(right, formats.proxychains.render([proxy('Zx9_-secret')], exportOptions({ chain: 'strict' })).text);
      expect((await run(PROXYCHAINS, ['-f', right, 'curl', '-sS', `http://127.0.0.1:${targetPort}/socks`])).stdout).toBe(
        'target saw /socks',
      );
      const wrong = join(folder.dir, 'socks-wrong.conf');
      writeFileSync(wrong, formats.proxychains.render([proxy('wrong')], exportOptions({ chain: 'strict' })).text);
      const refused = await run(PROXYCHAINS, ['-f', wrong, 'curl', '-sS', '--max-time', '10', `http://127.0.0.1:${targetPort}/socks`]);
      expect(refused.stdout).toBe('');
      expect(refused.code).not.toBe(0);
    } finally {
      socks.kill('SIGKILL');
    }
  });
});

describe.skipIf(pacparserMissing() !== undefined)('pacparser evaluates the PAC file', () => {
  beforeAll(() => console.log(pacparserVersion()));
  const a = httpProxy({ name: HOSTILE_NAME });
  const b = socksProxy({ host: '10.0.0.6' });
  it.each([
    [
      'every host',
      { hosts: [], fallback: 'direct' },
      [
        ['https://example.com/', 'PROXY 10.0.0.5:3128; SOCKS5 10.0.0.6:1080; DIRECT'],
        ['http://intranet/', 'DIRECT'],
        ['http://localhost:8080/', 'DIRECT'],
        ['http://127.0.0.1/', 'DIRECT'],
      ],
    ],
    [
      'a pattern list, no fallback',
      { hosts: ['*.example.com', 'api.test', '10.1.*'], fallback: 'none' },
      [
        ['https://www.example.com/x', 'PROXY 10.0.0.5:3128; SOCKS5 10.0.0.6:1080'],
        ['https://WWW.EXAMPLE.COM/x', 'PROXY 10.0.0.5:3128; SOCKS5 10.0.0.6:1080'],
        ['http://api.test:8080/', 'PROXY 10.0.0.5:3128; SOCKS5 10.0.0.6:1080'],
        ['http://10.1.2.3/', 'PROXY 10.0.0.5:3128; SOCKS5 10.0.0.6:1080'],
        ['https://example.com/', 'DIRECT'],
        ['https://example.org/', 'DIRECT'],
      ],
    ],
  ] as const)('%s', (_what, routing, table) => {
    const pac = formats.pac.render([a, b], exportOptions({ routing: { hosts: [...routing.hosts], fallback: routing.fallback } })).text;
    expect(
      pacparserAnswers(
        pac,
        table.map(([url]) => url),
      ),
    ).toEqual(table.map(([, answer]) => answer));
  });
});

describe('bash sources the shell lines', () => {
  let squid: RealProxy | undefined;
  beforeAll(async () => {
    console.log(`${bashVersion()}; ${curlVersion()}`);
    if (!missing('squid')) squid = await startSquid();
  });
  afterAll(() => squid?.stop());

  it('reads back each variable exactly, a hostile password and name included, and runs nothing', () => {
    const canary = join(folder.dir, 'pwned');
    const password = `it's $(touch ${canary}) \`touch ${canary}\` "q" \\ ; done`;
    const text = formats.shell.render(
      [
        httpProxy({ name: `x'; touch ${canary}; '\ntouch ${canary}\n`, credentials: { username: 'alice', password } }),
        socksProxy({ name: HOSTILE_NAME }),
      ],
      exportOptions(),
    ).text;
    const file = join(folder.dir, 'proxy-env.sh');
    writeFileSync(file, text);
    const r = spawnSync('env', ['-i', 'bash', '-c', `. ${file} && env -0`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const env = Object.fromEntries(
      r.stdout
        .split('\0')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const url = `http://alice:${encodeURIComponent(password).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}@10.0.0.5:3128`;
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy']) expect(env[name]).toBe(url);
    expect(decodeURIComponent(new URL(env.HTTP_PROXY!).password)).toBe(password);
    expect(env.NO_PROXY).toBe('localhost,127.0.0.1,::1');
    expect(existsSync(canary)).toBe(false);
  });

  it.skipIf(missing('squid') !== undefined)('makes curl go through Squid', async () => {
    const file = join(folder.dir, 'squid-env.sh');
    writeFileSync(
      file,
      formats.shell.render([httpProxy({ host: '127.0.0.1', endpoint: { protocol: 'http', port: squid!.port } })], exportOptions()).text,
    );
    // NO_PROXY keeps loopback direct, as it should for a user; this test's target is on loopback, so it is unset.
    // Not spawnSync: the target answers from this process, whose loop must keep running.
    const r = await run('bash', ['-c', `. ${file} && unset NO_PROXY no_proxy && curl -sS http://127.0.0.1:${targetPort}/via-env`]);
    expect(r.stdout).toBe('target saw /via-env');
    expect(await squidLog(squid!, '/via-env')).toContain('/via-env');
  });
});

async function waitForPort(port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listened on ${port}`);
}
