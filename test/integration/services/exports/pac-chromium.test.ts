/**
 * Issue 24 §3: the exported PAC file read by Chromium itself (`--proxy-pac-url`, headless, through
 * playwright-core as the e2e tests drive it), for a table of URLs. The proxies are stand-ins on loopback that
 * answer every request with who they are ("via A", an HTTP proxy; "via B", SOCKS5), and the test host names resolve
 * to a direct server that says "direct" (`--host-resolver-rules`), so each page's text tells which path Chromium
 * took: a matching host through A, B when A is down (the file's order), DIRECT for the rest, and nothing at all
 * with no fallback.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formats } from '../../../../main/services/exports/formats';
import type { RoutingOptions } from '../../../../shared/channels/exports';
import { CHROMIUM_PATH, chromiumMissingReason } from '../../../support/browser';
import { HOSTILE_NAME, exportOptions, httpProxy, socksProxy } from '../../../support/export-proxies';
import { freePort } from '../../../support/real-proxy';
import { chromium } from 'playwright-core';

const listen = async (server: Server | NetServer) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

/** An HTTP proxy stand-in: the request line Chromium sent it (absolute-form) comes back in the page. */
function httpStandIn(): Server {
  return createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end(`via A ${req.url}`));
}

/** A SOCKS5 stand-in (RFC 1928, no auth): it accepts any CONNECT and answers the HTTP request inside itself. */
function socksStandIn(): NetServer {
  return createNetServer((client: Socket) => {
    let stage: 'greeting' | 'request' | 'http' = 'greeting';
    let target = '';
    client.on('error', () => undefined);
    client.on('data', (chunk: Buffer) => {
      if (stage === 'greeting') {
        client.write(Buffer.from([5, 0]));
        stage = 'request';
      } else if (stage === 'request') {
        target = chunk[3] === 3 ? chunk.subarray(5, 5 + chunk[4]!).toString() : [...chunk.subarray(4, 8)].join('.');
        client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
        stage = 'http';
      } else {
        const body = `via B ${target}`;
        client.end(`HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      }
    });
  });
}

const skip = chromiumMissingReason();
describe.skipIf(skip !== undefined)('Chromium reads the PAC file', () => {
  let a: Server;
  let b: NetServer;
  let direct: Server;
  let ports: { a: number; b: number; direct: number; dead: number; pac: number };
  /** The PAC file, served as a web server would (Chromium fetches it before the first request). */
  let pacText = '';
  const pacServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/x-ns-proxy-autoconfig' }).end(pacText));
  beforeAll(async () => {
    a = httpStandIn();
    b = socksStandIn();
    direct = createServer((req, res) =>
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' }).end(`direct ${req.headers.host}`),
    );
    ports = { a: await listen(a), b: await listen(b), direct: await listen(direct), dead: await freePort(), pac: await listen(pacServer) };
  });
  afterAll(async () => {
    a.closeAllConnections();
    direct.closeAllConnections();
    pacServer.closeAllConnections();
    await Promise.all([a, b, direct, pacServer].map((s) => new Promise((resolve) => s.close(resolve))));
  });

  /** Chromium with the PAC file written for `routing`, A (on `aPort`) then B; what each URL's page says, or its error. */
  async function pagesThrough(routing: RoutingOptions, urls: readonly string[], aPort = ports.a): Promise<string[]> {
    const pac = formats.pac.render(
      [
        httpProxy({ name: HOSTILE_NAME, host: '127.0.0.1', endpoint: { protocol: 'http', port: aPort } }),
        socksProxy({ host: '127.0.0.1', endpoint: { protocol: 'socks5', port: ports.b } }),
      ],
      exportOptions({ routing }),
    ).text;
    pacText = pac;
    const browser: Browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        `--proxy-pac-url=http://127.0.0.1:${ports.pac}/proxy.pac`,
        // Only the test names: a rule for every host would send the proxies and the PAC URL (127.0.0.1) there too.
        `--host-resolver-rules=MAP *.test 127.0.0.1:${ports.direct}, MAP intranet 127.0.0.1:${ports.direct}`,
      ],
    });
    try {
      console.log(`Chromium ${browser.version()}`);
      const page = await browser.newPage();
      const seen: string[] = [];
      for (const url of urls) {
        try {
          await page.goto(url, { timeout: 15_000 });
          seen.push((await page.textContent('body'))?.trim() ?? '');
        } catch (e) {
          seen.push(/net::(ERR_[A-Z_]+)/.exec((e as Error).message)?.[1] ?? (e as Error).message);
        }
      }
      return seen;
    } finally {
      await browser.close();
    }
  }

  it('sends the matching hosts through the first proxy, the rest direct', async () => {
    const seen = await pagesThrough({ hosts: ['*.example.test', 'api.test'], fallback: 'direct' }, [
      'http://www.example.test/a',
      'http://api.test/b',
      'http://other.test/c',
      'http://intranet/d',
    ]);
    expect(seen).toEqual(['via A http://www.example.test/a', 'via A http://api.test/b', 'direct other.test', 'direct intranet']);
  });

  it('tries the next proxy when the first is down (SOCKS5, names sent to it), with no pattern for every host', async () => {
    const seen = await pagesThrough({ hosts: [], fallback: 'direct' }, ['http://site.test/x', 'http://intranet/y'], ports.dead);
    expect(seen).toEqual(['via B site.test', 'direct intranet']);
  });

  it('falls back to direct when every proxy is down, or fails with no fallback', async () => {
    b.close();
    const withDirect = await pagesThrough({ hosts: [], fallback: 'direct' }, ['http://site.test/x'], ports.dead);
    const none = await pagesThrough({ hosts: [], fallback: 'none' }, ['http://site.test/x'], ports.dead);
    expect(withDirect).toEqual(['direct site.test']);
    expect(none[0]).toMatch(/^ERR_(PROXY_CONNECTION_FAILED|SOCKS_CONNECTION_FAILED|TUNNEL_CONNECTION_FAILED)$/);
  });
});
