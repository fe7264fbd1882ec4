/** Issue 24 §3: the URL a client is given for a proxy (shared/domain/proxy-url.ts), as a table. */
import { describe, expect, it } from 'vitest';
import { hostPort, proxyUrl } from '../../../shared/domain/proxy-url';

describe('proxyUrl', () => {
  it.each([
    ['an HTTP proxy', { protocol: 'http', port: 3128 }, '10.0.0.5', undefined, 'http://10.0.0.5:3128'],
    ['a SOCKS5 proxy: names resolved at the proxy', { protocol: 'socks5', port: 1080 }, '10.0.0.6', undefined, 'socks5h://10.0.0.6:1080'],
    ['an IPv6 host, bracketed', { protocol: 'http', port: 8888 }, 'fd00::5', undefined, 'http://[fd00::5]:8888'],
    ['a host already bracketed stays as it is', { protocol: 'http', port: 8888 }, '[fd00::5]', undefined, 'http://[fd00::5]:8888'],
    [
      'credentials, percent-encoded',
      { protocol: 'http', port: 3128 },
      '10.0.0.5',
      { username: 'proxy user', password: 'p@ss:w/rd%?#' },
      'http://proxy%20user:p%40ss%3Aw%2Frd%25%3F%23@10.0.0.5:3128',
    ],
    [
      'credentials on SOCKS5 over IPv6',
      { protocol: 'socks5', port: 1080 },
      'fd00::6',
      { username: 'u', password: "it's(*)!" },
      'socks5h://u:it%27s%28%2A%29%21@[fd00::6]:1080',
    ],
  ] as const)('%s', (_what, endpoint, host, credentials, expected) => {
    const url = proxyUrl(endpoint, host, credentials);
    expect(url).toBe(expected);
    // Every URL parser reads back the same host, port and credentials.
    const parsed = new URL(url);
    expect(parsed.port).toBe(String(endpoint.port));
    if (credentials) {
      expect(decodeURIComponent(parsed.username)).toBe(credentials.username);
      expect(decodeURIComponent(parsed.password)).toBe(credentials.password);
    } else expect(parsed.username).toBe('');
  });

  it('writes host:port with IPv6 bracketed', () => {
    expect(hostPort('192.168.1.2', 3128)).toBe('192.168.1.2:3128');
    expect(hostPort('2001:db8::1', 1080)).toBe('[2001:db8::1]:1080');
  });
});
