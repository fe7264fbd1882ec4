/**
 * The redactor cuts a registered secret by its exact value in every
 * encoding a secret can take on its way to a log line or an error: raw,
 * JSON-escaped (once, and twice for JSON quoted inside a JSON line), with
 * non-ASCII escaped as \\uXXXX, URL-encoded (path and form style),
 * base64, base64url and hex. Secrets with quotes, backslashes, tabs and
 * non-ASCII characters, and short ones, are cut like any other.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../main/log/logger';
import { REDACTED, redactSecrets, registerSecret, secretForms } from '../../../main/log/secrets';

const secrets = {
  quote: 'a"quote"inside-the-secret-01',
  backslash: 'back\\slash\\in-the-secret-02',
  tab: 'tab\tin\tthe-secret-03',
  unicode: 'ünïcödé-秘密-🔑-secret-04',
  everything: `q"b\\t\tn\nu-é-🔑-&+/=%?#-05`,
  short: 'Zq9',
};
for (const s of Object.values(secrets)) registerSecret(s);

const asciiJson = (s: string) =>
  JSON.stringify(s)
    .slice(1, -1)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Every encoding a secret can reach a log in. */
function encodings(s: string): Record<string, string> {
  const json = JSON.stringify(s).slice(1, -1);
  return {
    raw: s,
    json,
    jsonTwice: JSON.stringify(json).slice(1, -1),
    jsonAscii: asciiJson(s),
    url: encodeURIComponent(s),
    urlLower: encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    form: new URLSearchParams({ v: s }).toString().slice(2),
    base64: Buffer.from(s, 'utf8').toString('base64'),
    base64url: Buffer.from(s, 'utf8').toString('base64url'),
    hex: Buffer.from(s, 'utf8').toString('hex'),
    hexUpper: Buffer.from(s, 'utf8').toString('hex').toUpperCase(),
  };
}

describe('redactSecrets', () => {
  for (const [name, secret] of Object.entries(secrets)) {
    for (const [encoding, text] of Object.entries(encodings(secret))) {
      it(`cuts the ${name} secret ${encoding}`, () => {
        const out = redactSecrets(`before ${text} after`);
        expect(out).toBe(`before ${REDACTED} after`);
      });
    }
  }

  it('cuts a secret inside a JSON log line, whatever the line escapes', () => {
    const lines: string[] = [];
    const logger = createMemoryLogger();
    for (const secret of Object.values(secrets)) {
      logger.error('request failed', {
        body: `token=${secret}`,
        nested: { header: JSON.stringify({ auth: secret }) },
        url: `/x?t=${encodeURIComponent(secret)}`,
      });
    }
    lines.push(...logger.lines);
    for (const line of lines) {
      expect(() => JSON.parse(line)).not.toThrow();
      for (const secret of Object.values(secrets)) for (const text of Object.values(encodings(secret))) expect(line).not.toContain(text);
    }
  });

  it('cuts the longer of two overlapping secrets whole', () => {
    registerSecret('overlap-0123456789');
    registerSecret('overlap-0123456789-and-more-tail');
    expect(redactSecrets('x overlap-0123456789-and-more-tail y')).toBe(`x ${REDACTED} y`);
  });

  it('keeps the forms of a secret for tests and callers that search for them', () => {
    expect(secretForms(secrets.quote)).toEqual(expect.arrayContaining([secrets.quote, JSON.stringify(secrets.quote).slice(1, -1)]));
  });

  it('never registers the empty string', () => {
    registerSecret('');
    expect(redactSecrets('plain text')).toBe('plain text');
  });
});

/**
 * A secret rarely travels alone: `Bearer <token>`, HTTP basic's `user:password`
 * and `PVEAPIToken=<id>=<secret>` are encoded whole, so the secret's base64
 * starts at any of the three byte offsets, and a server that echoes the
 * header back echoes that. Nothing of the secret may be read back from what is
 * left: no run of base64 in the text decodes, at any offset, to 4 bytes of it.
 */
describe('redactSecrets: a secret encoded inside a longer value', () => {
  const token = 'tk_SENTINEL-redaction-base64-offsets-42';
  registerSecret(token);
  const carriers = {
    bearer: (s: string) => `Bearer ${s}`,
    gotify: (s: string) => s,
    basic: (s: string) => `egress:${s}`,
    basicLong: (s: string) => `egress-user:${s}`,
    pve: (s: string) => `PVEAPIToken=desk@pve!ci=${s}`,
  };
  const readable = (text: string, secret: string): boolean => {
    const bytes = Buffer.from(secret, 'utf8');
    const pieces = Array.from({ length: bytes.length - 3 }, (_, i) => bytes.subarray(i, i + 4));
    for (const run of text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? [])
      for (let skip = 0; skip < 4; skip++) {
        const decoded = Buffer.from(run.slice(skip).replace(/-/g, '+').replace(/_/g, '/'), 'base64');
        if (pieces.some((p) => decoded.includes(p))) return true;
      }
    return false;
  };

  for (const [name, carry] of Object.entries(carriers)) {
    for (const encoding of ['base64', 'base64url'] as const) {
      it(`cuts the token out of ${name} in ${encoding}`, () => {
        const echoed = Buffer.from(carry(token), 'utf8').toString(encoding);
        const out = redactSecrets(`{"error":"bad header ${echoed}"}`);
        expect(out).toContain(REDACTED);
        expect(readable(out, token)).toBe(false);
      });
    }
  }

  it('cuts it HTML-escaped and in base64 with JSON-escaped slashes (PHP) and URL-encoded', () => {
    const odd = 'a&b<c>"d\'e/f+g==secret-in-html-77';
    registerSecret(odd);
    const html = odd.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    expect(redactSecrets(`<p>${html}</p>`)).toBe(`<p>${REDACTED}</p>`);
    const b64 = Buffer.from(`Bearer ${odd}`).toString('base64');
    for (const text of [b64.replace(/\//g, '\\/'), encodeURIComponent(b64)])
      expect(readable(redactSecrets(text).replace(/\\\//g, '/').replace(/%2F/gi, '/').replace(/%2B/gi, '+'), odd)).toBe(false);
  });

  it('leaves ordinary text alone: a short secret is not looked for at other offsets', () => {
    registerSecret('Qx7');
    expect(redactSecrets('the quick brown fox jumps over the lazy dog 0123456789')).toBe(
      'the quick brown fox jumps over the lazy dog 0123456789',
    );
  });
});
