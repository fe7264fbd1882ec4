/**
 * Issue 24, targets: besides the echo URL, the sites a proxy must reach
 * ("does this proxy reach the site I need"). A tag's targets apply to every
 * proxy carrying the tag; a proxy's own add to them. Each scheduled check
 * (and Test) fetches them through the proxy after the egress check.
 *
 * One rule for the renderer and main, so the editor refuses exactly what
 * main refuses, in the same words: http or https only, a host, no user name
 * or password in the URL, at most MAX_TARGETS in a list, no duplicates.
 */
import { httpUrlProblem } from './web-url';

/** The most targets one list (a proxy's own, or a tag's) holds, and the most fetched for one proxy per check. */
export const MAX_TARGETS = 10;
const MAX_LENGTH = 2048;
const example = 'such as https://example.com/';

/** Why `text` cannot be a target, in words; undefined when it can. */
export function targetUrlProblem(text: string): string | undefined {
  if (text.length > MAX_LENGTH) return `The URL is longer than ${MAX_LENGTH} characters.`;
  return httpUrlProblem(text, {
    example,
    notHttp: (protocol) => `Only http:// and https:// sites can be fetched through a proxy, not ${protocol} URLs.`,
    credentials:
      'The URL must not hold a user name or password: it is sent through the proxy and kept in the check history. Use a URL that needs no login.',
  });
}

export type TargetList = { ok: true; urls: string[] } | { ok: false; problem: string };

/**
 * A list as the user typed it (one URL a line, or the lines already split): blank lines dropped, spaces trimmed,
 * a repeated URL kept once; refused in words, naming the line, when one is not a target or there are too many.
 */
export function parseTargets(input: string | readonly string[]): TargetList {
  const lines = typeof input === 'string' ? input.split(/\r?\n/) : input;
  const urls: string[] = [];
  for (const [i, raw] of lines.entries()) {
    const text = raw.trim();
    if (text === '') continue;
    const problem = targetUrlProblem(text);
    if (problem) return { ok: false, problem: lines.length > 1 ? `Line ${i + 1} (${shorten(text)}): ${problem}` : problem };
    if (!urls.includes(text)) urls.push(text);
  }
  if (urls.length > MAX_TARGETS)
    return {
      ok: false,
      problem: `${urls.length} targets is too many: a list holds at most ${MAX_TARGETS}. Remove ${urls.length - MAX_TARGETS}.`,
    };
  return { ok: true, urls };
}

/** Where a proxy's target comes from: one of its tags, or the proxy itself. */
export type TargetSource = { tag: string } | { proxy: true };

export interface MergedTarget {
  url: string;
  /** Every list that names it, tags first (in the proxy's tag order), then the proxy's own. */
  from: TargetSource[];
}

export interface MergedTargets {
  /** What the checks fetch, at most MAX_TARGETS: the tags' targets first, then the proxy's own, each once. */
  targets: MergedTarget[];
  /** URLs past MAX_TARGETS, not fetched (the drawer says so). */
  left: string[];
}

/** The targets of a proxy with these tags: each tag's list, then its own, a URL named twice fetched once. */
export function mergeTargets(
  tags: readonly string[],
  tagTargets: (tag: string) => readonly string[] | undefined,
  own: readonly string[],
): MergedTargets {
  const byUrl = new Map<string, MergedTarget>();
  const add = (url: string, source: TargetSource) => {
    const known = byUrl.get(url);
    if (known) known.from.push(source);
    else byUrl.set(url, { url, from: [source] });
  };
  for (const tag of new Set(tags)) for (const url of tagTargets(tag) ?? []) add(url, { tag });
  for (const url of own) add(url, { proxy: true });
  const all = [...byUrl.values()];
  return { targets: all.slice(0, MAX_TARGETS), left: all.slice(MAX_TARGETS).map((t) => t.url) };
}

/** The line as the words quote it: a user name or password in it is never repeated (it may be a real secret). */
function shorten(text: string): string {
  const shown = text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1…@');
  return shown.length > 60 ? `${shown.slice(0, 57)}…` : shown;
}
