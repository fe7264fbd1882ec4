/**
 * Every secret main learns (a token secret, a proxy password) is registered
 * here, and every log line and every error message that leaves main passes
 * through `redactSecrets`. This is the net under the rule "never log a
 * secret": code should not try to log one, and if it does, the text is cut.
 */
const known = new Set<string>();
const MIN_SECRET_LENGTH = 6;

export const REDACTED = '[redacted]';

export function registerSecret(secret: string): void {
  if (secret.length >= MIN_SECRET_LENGTH) known.add(secret);
}

export function forgetSecret(secret: string): void {
  known.delete(secret);
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  // A PVE token header or a `user@realm!id=secret` token line never survives, registered or not.
  return out
    .replace(/PVEAPIToken=[^\s"',;]+/g, `PVEAPIToken=${REDACTED}`)
    .replace(/([A-Za-z0-9._-]+@[A-Za-z0-9._-]+![A-Za-z0-9._-]+)=[^\s"',;]+/g, `$1=${REDACTED}`);
}
