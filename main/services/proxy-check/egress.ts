/**
 * The address the target saw, from its answer: a bare address (ipify,
 * ifconfig.me, icanhazip) or JSON with `ip`, `origin` (httpbin) or `address`.
 */
import { isIP } from 'node:net';

export function egressAddressOf(body: string): string | undefined {
  const text = body.trim();
  if (isIP(text)) return text;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    for (const key of ['ip', 'origin', 'address']) {
      const field = (value as Record<string, unknown>)[key];
      // httpbin lists every hop ("a, b"); the first is the one that reached it.
      const first = typeof field === 'string' ? field.split(',')[0]!.trim() : undefined;
      if (first && isIP(first)) return first;
    }
  } catch {
    // Not JSON: an HTML page or some other text with no address in a known place.
  }
  return undefined;
}
