/**
 * The WHATWG URL of Node and the browser, for the schemas in shared/ (which
 * compile with neither's types, so only what is read here is declared), and
 * the one check every http(s) URL a user types goes through.
 */
export interface WebUrlParts {
  protocol: string;
  hostname: string;
  host: string;
  origin: string;
  username: string;
  password: string;
}
declare const URL: new (input: string) => WebUrlParts;

/** The URL's parts, or undefined when `text` is not a URL. */
export function parseWebUrl(text: string): WebUrlParts | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The words a caller gives for each refusal: what the URL is for decides how each is explained. */
export interface HttpUrlWords {
  /** How a good URL looks, e.g. "such as https://api.ipify.org". */
  example: string;
  /** Why another scheme (such as `ftp:`) cannot be used. */
  notHttp: (protocol: string) => string;
  /** Why a user name or password in the URL is refused. */
  credentials: string;
}

/** Why `text` is not an http(s) URL with a host and no credentials, in the caller's words; undefined when it is. */
export function httpUrlProblem(text: string, words: HttpUrlWords): string | undefined {
  const url = parseWebUrl(text);
  if (!url) return `This is not a URL: write it in full, with http:// or https://, ${words.example}.`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return words.notHttp(url.protocol);
  if (url.hostname === '') return `The URL names no host: write it in full, ${words.example}.`;
  if (url.username !== '' || url.password !== '') return words.credentials;
  return undefined;
}
