/**
 * The static file server under hostile request-targets, written byte for
 * byte over a raw socket: bad percent-encodings, NUL bytes, very long URLs,
 * `..` in every encoding, backslashes, absolute forms, HEAD and odd methods.
 * Each gets a plain 4xx (never a file outside the folder), no promise is left
 * rejected, and afterwards a second, authorized client is still served.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../../support/web-host';
import { rawHttp, rawRequest, stillServes } from './raw-client';

const SECRET = 'outside-the-static-folder-7f3a';

describe('browser-mode static files under hostile paths', () => {
  let t: TestHost;
  let port: number;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    // A static folder with a known file next to it, so any traversal that works shows up as its text.
    const base = mkdtempSync(join(tmpdir(), 'egress-static-'));
    const staticDir = join(base, 'renderer');
    mkdirSync(join(staticDir, 'assets'), { recursive: true });
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(base, 'secret.txt'), SECRET);
    writeFileSync(join(base, 'renderer-secret.txt'), SECRET);
    t = await startTestHost({ demo: 'off', host: { staticDir } });
    port = t.host.port;
  });
  afterAll(async () => {
    process.off('unhandledRejection', onRejection);
    await t.close();
  });

  it('serves the app itself, for GET and HEAD', async () => {
    const get = await rawRequest(port, '/');
    expect(get.status).toBe(200);
    expect(get.body.toString()).toContain('<title>app</title>');
    expect((await rawRequest(port, '/assets/app.js')).status).toBe(200);
    const head = await rawRequest(port, '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.head).toMatch(/content-security-policy/i);
    expect(head.body.length).toBe(0);
  });

  it('answers 400 to a broken percent-encoding (curl --path-as-is /%) and keeps serving', async () => {
    for (const target of ['/%', '/%zz', '/%E0%A4%A', '/%C3%28', '/assets/%', '/%%', '/index.html?x=%']) {
      const r = await rawRequest(port, target);
      expect([target, r.status]).toEqual([target, target.includes('?') ? 200 : 400]);
    }
    await stillServes(port, t.host.key);
    expect(rejections).toEqual([]);
  });

  it('answers 400 to a NUL byte, encoded or raw', async () => {
    expect((await rawRequest(port, '/%00')).status).toBe(400);
    expect((await rawRequest(port, '/index.html%00.png')).status).toBe(400);
    expect((await rawRequest(port, Buffer.from('/index\0.html', 'latin1'))).status).toBe(400);
    await stillServes(port, t.host.key);
  });

  it('answers 414 to a very long URL, and 431 past the header limit', async () => {
    expect((await rawRequest(port, '/' + 'a'.repeat(5000))).status).toBe(414);
    expect((await rawRequest(port, '/' + 'a'.repeat(70_000))).status).toBe(431);
    await stillServes(port, t.host.key);
  });

  it('never serves a file outside the folder, whatever the encoding of ..', async () => {
    const targets = [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/.%2e/secret.txt',
      '/%252e%252e/secret.txt',
      '/..\\secret.txt',
      '/..%5csecret.txt',
      '/assets\\..\\..\\secret.txt',
      '/../renderer-secret.txt',
      '/%2e%2e%2frenderer-secret.txt',
      `/${join(tmpdir())}/secret.txt`,
      '//etc/passwd',
      '/%2fetc%2fpasswd',
      '/C:%5cWindows%5cwin.ini',
      '/./index.html',
    ];
    for (const target of targets) {
      const r = await rawRequest(port, target);
      expect([target, r.status]).toEqual([target, expect.toBeOneOf([400, 404])]);
      expect(r.body.toString()).not.toContain(SECRET);
      expect(r.body.toString()).not.toContain('root:');
    }
    await stillServes(port, t.host.key);
  });

  it('refuses request-targets that are not a plain path (absolute form, *, empty)', async () => {
    expect((await rawRequest(port, `http://127.0.0.1:${port}/index.html`)).status).toBe(400);
    expect((await rawRequest(port, 'http://[::1')).status).toBe(400);
    expect((await rawRequest(port, '*', { method: 'OPTIONS' })).status).toBe(405);
    expect((await rawRequest(port, 'index.html')).status).toBe(400);
    await stillServes(port, t.host.key);
  });

  it('answers 405 with Allow to every method but GET and HEAD, CONNECT included', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'BREW']) {
      const r = await rawRequest(port, '/', { method });
      // Node's parser refuses methods it does not know with a 400 before the host sees them.
      expect([method, r.status]).toEqual([method, method === 'BREW' ? 400 : 405]);
      if (r.status === 405) expect(r.head).toMatch(/\r\nallow: GET, HEAD/i);
    }
    const connect = await rawHttp(port, `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n`);
    expect(connect.status).toBe(405);
    await stillServes(port, t.host.key);
  });

  it('closes cleanly on garbage instead of HTTP and on a half-sent request', async () => {
    expect((await rawHttp(port, Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x01]))).status).toBe(400);
    expect((await rawHttp(port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n', 300)).status).toBe(0);
    await stillServes(port, t.host.key);
    expect(rejections).toEqual([]);
  });
});
