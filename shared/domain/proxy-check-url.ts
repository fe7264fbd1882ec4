/**
 * The URL the proxy check fetches through a proxy: the app setting, and the
 * per-check override a request may carry. One schema for both sides, so the
 * Settings view refuses exactly what main refuses, in the same words.
 */
import { z } from 'zod';
import { httpUrlProblem } from './web-url';

/** Answers with the caller's address as plain text; used when no URL is set. */
export const DEFAULT_PROXY_CHECK_URL = 'https://api.ipify.org';

const MAX_LENGTH = 2048;
const example = 'such as https://api.ipify.org';

/** Why `text` cannot be the check's URL, in words; undefined when it can. */
export function proxyCheckUrlProblem(text: string): string | undefined {
  if (text === '') return `Enter the URL the check fetches through the proxy, ${example}.`;
  if (text.length > MAX_LENGTH) return `The URL is longer than ${MAX_LENGTH} characters.`;
  return httpUrlProblem(text, {
    example,
    notHttp: (protocol) => `Only http:// and https:// URLs can be fetched through a proxy, not ${protocol} URLs.`,
    credentials:
      'The URL must not hold a user name or password: it is sent through the proxy and shown in results. Use a URL that needs no login.',
  });
}

/** An http(s) URL with a host and no credentials, at most 2048 characters; surrounding spaces are dropped. */
export const ProxyCheckUrl = z
  .string()
  .max(MAX_LENGTH, { error: `The URL is longer than ${MAX_LENGTH} characters.`, abort: true })
  .trim()
  .superRefine((text, ctx) => {
    const message = proxyCheckUrlProblem(text);
    if (message) ctx.addIssue({ code: 'custom', message, input: text });
  });
