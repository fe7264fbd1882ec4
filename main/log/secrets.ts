/**
 * Every secret main learns (a token secret, a proxy password) is registered
 * here, and every log line and every error message that leaves main passes
 * through `redactSecrets`. This is the net under the rule "never log a
 * secret": code should not try to log one, and if it does, the text is cut.
 *
 * A secret is cut by its exact value in every form it can take on its way
 * to a line: raw, JSON-escaped (a log line is JSON; JSON quoted inside it is
 * escaped twice; some encoders escape non-ASCII as \uXXXX), URL-encoded
 * (path and form style), HTML-escaped, base64 and base64url (the
 * unprotected store and HTTP basic auth use them) and hex.
 *
 * A secret is often encoded inside a longer value (`Bearer <token>`, basic
 * auth's `user:password`, `PVEAPIToken=<id>=<secret>`), and a server may echo
 * that back: its base64 then starts at any of three byte offsets. For each
 * offset the characters that only the secret's own bytes make are a form too
 * (plain, with JSON's `\/`, URL-encoded), so what is left of it is at most the
 * two bytes either end shares with its neighbours. Only a secret long enough
 * to give 12 such characters gets them: a shorter run would cut ordinary words.
 * A secret of any length is registered:
 * the schemas refuse token secrets too short to be real, and a short one
 * that arrives anyway (a token file) is still never logged.
 */
const known = new Set<string>();
/** Every form of every known secret, longest first, so a secret containing another is cut whole. */
let forms: string[] = [];

export const REDACTED = '[redacted]';

function escapeNonAscii(json: string, upper: boolean): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

const MIN_SHIFTED = 12;

function htmlEscaped(text: string): string[] {
  const base = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return [base.replace(/'/g, '&#39;'), base.replace(/'/g, '&#x27;'), base.replace(/'/g, '&apos;')];
}

/** The base64 (and base64url) characters made by the secret's bytes alone, for each of the three offsets it can start at. */
function shiftedBase64(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let skip = 0; skip < 3; skip++) {
    const whole = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
    const text = whole.toString('base64');
    if (text.length < MIN_SHIFTED) continue;
    out.push(text, whole.toString('base64url'), text.replace(/\//g, '\\/'), encodeURIComponent(text));
  }
  return out;
}

/** The forms a secret is searched for in; exported so tests can search for the same ones. */
export function secretForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const url = encodeURIComponent(secret);
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = bytes.toString('base64');
  const hex = bytes.toString('hex');
  const all = [
    secret,
    json,
    JSON.stringify(json).slice(1, -1),
    escapeNonAscii(json, false),
    escapeNonAscii(json, true),
    url,
    url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    encodeURI(secret),
    new URLSearchParams({ v: secret }).toString().slice(2),
    base64,
    base64.replace(/=+$/, ''),
    bytes.toString('base64url'),
    hex,
    hex.toUpperCase(),
    ...htmlEscaped(secret),
    ...shiftedBase64(bytes),
  ];
  return [...new Set(all.filter((f) => f.length > 0))];
}

function rebuild(): void {
  const all = new Set<string>();
  for (const secret of known) for (const form of secretForms(secret)) all.add(form);
  forms = [...all].sort((a, b) => b.length - a.length);
}

export function registerSecret(secret: string): void {
  if (secret.length === 0 || known.has(secret)) return;
  known.add(secret);
  rebuild();
}

export function forgetSecret(secret: string): void {
  if (known.delete(secret)) rebuild();
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
  // A PVE token header or a `user@realm!id=secret` token line never survives, registered or not. The token line
  // starts only where a run of its characters starts: tried from inside a long run (a base64 body), it was quadratic.
  return out
    .replace(/PVEAPIToken=[^\s"',;]+/g, `PVEAPIToken=${REDACTED}`)
    .replace(/(?<![A-Za-z0-9._-])([A-Za-z0-9._-]+@[A-Za-z0-9._-]+![A-Za-z0-9._-]+)=[^\s"',;]+/g, `$1=${REDACTED}`);
}
