/**
 * What of a webhook server's refusal the user is told: the reason a webhook
 * server states in its JSON error (ntfy's `error`, Gotify's
 * `errorDescription`, a generic receiver's `message`, `detail` or `error`),
 * as one short line of plain text, with every registered secret cut. Nothing
 * else of the body: the URL may be any service on the network or loopback
 * (a router's admin page), and its page is not the app's to hand to the
 * renderer. A body cut at the read bound is not whole JSON, so it says nothing.
 */
import { redactSecrets } from '../../log/secrets';
import type { BoundedBody } from '../../net/read-at-most';

/** What is read of a refusal's body at most (an ntfy or Gotify error is ~150 bytes). */
export const MAX_ANSWER_BYTES = 8 * 1024;
/** The longest reason shown. */
const MAX_REASON = 160;
/** The members a reason is taken from, the more specific first. */
const REASON_KEYS = ['errorDescription', 'message', 'detail', 'error'] as const;

export function answerReason(contentType: string | undefined, body: BoundedBody): string | undefined {
  if (body.cut || !/\bjson\b/i.test(contentType ?? '')) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof json !== 'object' || json === null) return undefined;
  const record = json as Record<string, unknown>;
  const found = REASON_KEYS.map((k) => record[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return found === undefined ? undefined : plainLine(found);
}

/** Plain text in one line: no markup, no control or format characters, secrets cut before and after, bounded. */
function plainLine(text: string): string | undefined {
  const plain = redactSecrets(
    redactSecrets(text)
      .replace(/<[^>]*>/g, ' ')
      .replace(/[<>]/g, ' ')
      .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  if (plain === '') return undefined;
  return plain.length > MAX_REASON ? `${plain.slice(0, MAX_REASON - 1).trimEnd()}…` : plain;
}
