/**
 * The one rule for every stored secret (a cluster's token secret, a
 * webhook's token): it is paired with the origin it was saved for, the
 * scheme, host and port of its URL, and is only ever sent there. A path, a
 * trailing slash or the case of the host is no change; another origin needs
 * the secret given again. Main refuses such a save (main/services/secrets/
 * secret-origin.ts); a form says the same words before it sends.
 */
import { parseWebUrl } from './web-url';

/** What the secret is called in the words: "token secret" (a cluster), "token" (a webhook). */
export type SecretName = 'token secret' | 'token';

/** The origin a secret saved with `url` is bound to. */
export function originOf(url: string): string {
  return parseWebUrl(url)?.origin ?? url;
}

/**
 * Why the secret kept for `savedUrl` may not go to `url` unless given again, in words; undefined when it may
 * (the same origin).
 */
export function movedSecretProblem(savedUrl: string, url: string, name: SecretName): { message: string; hint: string } | undefined {
  if (originOf(savedUrl) === originOf(url)) return undefined;
  // An unparsable URL is refused elsewhere; name it as given.
  const host = parseWebUrl(url)?.host ?? url;
  return {
    message: `The server address changed: enter the ${name} again for ${host}.`,
    hint: `A saved ${name} is only sent to the server it was saved for; give it again to use it with ${host}.`,
  };
}
