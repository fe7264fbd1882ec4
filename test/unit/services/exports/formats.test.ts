/**
 * Issue 24 §3: each export format as a user reads it (main/services/exports/formats/). Their real consumers
 * read them in test/integration/services/exports/; here the text itself, a table per format, and a hostile VM
 * name that must not break out of any of them.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { formats } from '../../../../main/services/exports/formats';
import { csvCell } from '../../../../main/services/exports/formats/csv';
import { shellQuote } from '../../../../main/services/exports/formats/shell';
import { HOSTILE_NAME, exportOptions, httpProxy, socksProxy } from '../../../support/export-proxies';

const creds = { username: 'alice', password: 'pa:ss@/w%rd' };

describe('the plain list', () => {
  it('is host:port a line, IPv6 bracketed, and no credentials unless given', () => {
    const out = formats.list.render([httpProxy(), socksProxy()], exportOptions());
    expect(out.text).toBe('10.0.0.5:3128\n[fd00::6]:1080\n');
    expect(out.withCredentials).toBe(false);
    expect(out.notes.join(' ')).toMatch(/SOCKS5/);
  });
  it('is host:port:user:pass with credentials; one with ":" in its password goes without them, said', () => {
    const good = { username: 'bob', password: 'Zx9_-abc' };
    const out = formats.list.render([httpProxy({ credentials: good }), httpProxy({ name: 'web-2', credentials: creds })], exportOptions());
    expect(out.text).toBe('10.0.0.5:3128:bob:Zx9_-abc\n10.0.0.5:3128\n');
    expect(out.notes.join(' ')).toMatch(/web-2: its username or password holds ":"/);
  });
});

describe('JSON', () => {
  it('carries every fact and the URL; credentials only when given', () => {
    const plain = JSON.parse(formats.json.render([socksProxy()], exportOptions()).text) as { proxies: Record<string, unknown>[] };
    expect(plain.proxies[0]).toEqual({
      name: 'socks-1',
      cluster: 'lab',
      node: 'pve2',
      vmid: 102,
      protocol: 'socks5',
      host: 'fd00::6',
      port: 1080,
      url: 'socks5h://[fd00::6]:1080',
      tags: ['egress', 'eu'],
    });
    const withCreds = JSON.parse(formats.json.render([httpProxy({ credentials: creds })], exportOptions()).text) as {
      proxies: Record<string, unknown>[];
    };
    expect(withCreds.proxies[0]).toMatchObject({
      username: 'alice',
      password: creds.password,
      url: 'http://alice:pa%3Ass%40%2Fw%25rd@10.0.0.5:3128',
    });
  });
  it('reads back a hostile name as it is', () => {
    const parsed = JSON.parse(formats.json.render([httpProxy({ name: HOSTILE_NAME })], exportOptions()).text) as {
      proxies: { name: string }[];
    };
    expect(parsed.proxies[0]!.name).toBe(HOSTILE_NAME);
  });
});

describe('CSV', () => {
  it.each([
    ['plain', 'web-1', 'web-1'],
    ['a comma', 'a,b', '"a,b"'],
    ['a quote', 'say "hi"', '"say ""hi"""'],
    ['a newline', 'a\nb', '"a\nb"'],
    ['a formula', '=1+1', "'=1+1"],
    ['a plus', '+49', "'+49"],
    ['a minus', '-2', "'-2"],
    ['an at', '@SUM(A1)', "'@SUM(A1)"],
    ['a formula with a comma', '=HYPERLINK("x",1)', `"'=HYPERLINK(""x"",1)"`],
  ])('quotes a cell with %s', (_what, value, cell) => expect(csvCell(value)).toBe(cell));

  it('has a header, CRLF rows, and the credential columns only with credentials', () => {
    const out = formats.csv.render([httpProxy()], exportOptions());
    expect(out.text).toBe(
      'name,cluster,node,vmid,protocol,host,port,url,tags\r\nweb-1,lab,pve1,101,http,10.0.0.5,3128,http://10.0.0.5:3128,egress\r\n',
    );
    const withCreds = formats.csv.render([httpProxy({ credentials: creds })], exportOptions()).text;
    expect(withCreds.split('\r\n')[0]).toBe('name,cluster,node,vmid,protocol,host,port,url,tags,username,password');
    expect(withCreds).toContain(',alice,pa:ss@/w%rd\r\n');
  });

  it('keeps a hostile name in one cell of one row, never a formula', () => {
    const text = formats.csv.render([httpProxy({ name: HOSTILE_NAME }), httpProxy({ name: '=cmd|"/C calc"!A0' })], exportOptions()).text;
    const rows = parseCsv(text);
    expect(rows).toHaveLength(3);
    expect(rows[1]![0]).toBe(HOSTILE_NAME);
    expect(rows[2]![0]).toBe(`'=cmd|"/C calc"!A0`);
    expect(rows.every((r) => r.length === 9)).toBe(true);
  });
});

describe('the PAC file', () => {
  it('answers the proxies in order, then the fallback', () => {
    const text = formats.pac.render([httpProxy(), socksProxy()], exportOptions()).text;
    expect(text).toContain('var proxies = "PROXY 10.0.0.5:3128; SOCKS5 [fd00::6]:1080; DIRECT";');
    const strict = formats.pac.render([httpProxy()], exportOptions({ routing: { hosts: ['*.Example.com'], fallback: 'none' } })).text;
    expect(strict).toContain('var proxies = "PROXY 10.0.0.5:3128";');
    expect(strict).toContain('var hosts = ["*.example.com"];');
  });
  it('carries no credentials, and says so', () => {
    const out = formats.pac.render([httpProxy({ credentials: creds })], exportOptions({ includeCredentials: true }));
    expect(out.text).not.toContain('alice');
    expect(out.withCredentials).toBe(false);
    expect(out.notes.join(' ')).toMatch(/carries no credentials/);
  });
  it('runs as JavaScript with a hostile name, answering the same', () => {
    const text = formats.pac.render(
      [httpProxy({ name: HOSTILE_NAME })],
      exportOptions({ routing: { hosts: ['*.a.test'], fallback: 'direct' } }),
    ).text;
    const find = pacFunction(text);
    expect(find('http://x.a.test/', 'x.a.test')).toBe('PROXY 10.0.0.5:3128; DIRECT');
    expect(find('http://b.test/', 'b.test')).toBe('DIRECT');
  });
});

describe('proxychains.conf', () => {
  it('round-robins one proxy per connection by default, with proxy_dns and a line per proxy', () => {
    const text = formats.proxychains.render([httpProxy(), socksProxy({ host: '10.0.0.6' })], exportOptions()).text;
    expect(text).toMatch(/^round_robin_chain$/m);
    expect(text).toMatch(/^chain_len = 1$/m);
    expect(text).toMatch(/^proxy_dns$/m);
    expect(text).toMatch(
      /\[ProxyList\]\n# web-1 \(lab, VM 101\)\nhttp 10\.0\.0\.5 3128\n# socks-1 \(lab, VM 102\)\nsocks5 10\.0\.0\.6 1080\n/,
    );
  });
  it('strict_chain when chosen, with the credentials on the line', () => {
    const out = formats.proxychains.render(
      [httpProxy({ credentials: { username: 'bob', password: 'Zx9' } })],
      exportOptions({ chain: 'strict' }),
    );
    expect(out.text).toMatch(/^strict_chain$/m);
    expect(out.text).not.toMatch(/^chain_len/m);
    expect(out.text).toMatch(/^http 10\.0\.0\.5 3128 bob Zx9$/m);
  });
  it('keeps a hostile name inside its comment', () => {
    const text = formats.proxychains.render([httpProxy({ name: HOSTILE_NAME })], exportOptions()).text;
    const lines = text.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    expect(lines).toEqual([
      'round_robin_chain',
      'chain_len = 1',
      'proxy_dns',
      'remote_dns_subnet 224',
      'tcp_read_time_out 15000',
      'tcp_connect_time_out 8000',
      '[ProxyList]',
      'http 10.0.0.5 3128',
    ]);
  });
});

describe('shell lines', () => {
  it('export each variable in both cases, single-quoted', () => {
    const text = formats.shell.render([socksProxy(), httpProxy()], exportOptions()).text;
    expect(text).toContain("export HTTPS_PROXY='socks5h://[fd00::6]:1080'");
    expect(text).toContain("export https_proxy='socks5h://[fd00::6]:1080'");
    expect(text).toContain("export ALL_PROXY='socks5h://[fd00::6]:1080'");
    expect(text).toContain("export NO_PROXY='localhost,127.0.0.1,::1'");
  });
  it('quotes a quote', () => expect(shellQuote(`it's`)).toBe(`'it'\\''s'`));
});

describe('a hostile VM name', () => {
  it.each(['pac', 'proxychains', 'shell'] as const)('appears in the %s text only as a harmless comment', (format) => {
    const text = formats[format].render([httpProxy({ name: HOSTILE_NAME })], exportOptions()).text;
    expect(text).not.toContain('$(touch');
    expect(text).not.toContain('"; alert');
    expect(text).not.toContain('\u2028');
  });
});

/** The PAC file's FindProxyForURL, run in a fresh context with the two helpers it uses (pacparser and Chromium run the file itself). */
function pacFunction(text: string): (url: string, host: string) => string {
  const shExpMatch = (s: string, p: string) =>
    new RegExp(
      `^${p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    ).test(s);
  const isPlainHostName = (h: string) => !h.includes('.');
  return runInNewContext(`${text}\nFindProxyForURL;`, { shExpMatch, isPlainHostName }) as (url: string, host: string) => string;
}

/** RFC 4180 read back: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted || (c !== '"' && c !== ',' && c !== '\r')) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    }
  }
  return rows;
}
