/**
 * Issue 24, "Expected exit": where a proxy's traffic should leave for the
 * internet, as the user types it: an address, a CIDR, or a set of them
 * separated by commas or spaces (`203.0.113.7`, `203.0.113.0/28`,
 * `2001:db8::/48, 198.51.100.9`). The scheduled checks compare each good
 * check's egress address with it (main/services/alerts/proxy-rules.ts).
 * Pure: the drawer shows the same words main refuses with.
 */
import { contains, parseAddress, parsePrefix, type IpPrefix } from './ip-prefix';

export const MAX_EXPECTED_ENTRIES = 32;

export type ExpectedExitParse = { ok: true; entries: string[] } | { ok: false; problem: string };

function entryOf(text: string): IpPrefix | undefined {
  const address = parseAddress(text);
  if (address) return { ...address, length: address.family === 4 ? 32 : 128 };
  return parsePrefix(text);
}

/** The typed text as its entries (each an address or a CIDR, as typed), or the words of what is wrong. */
export function parseExpectedExit(text: string): ExpectedExitParse {
  const entries = text.split(/[\s,]+/).filter((e) => e !== '');
  if (entries.length === 0)
    return { ok: false, problem: 'Give the expected exit: an address, a CIDR like 203.0.113.0/28, or several separated by commas.' };
  if (entries.length > MAX_EXPECTED_ENTRIES)
    return {
      ok: false,
      problem: `${entries.length} entries are more than the ${MAX_EXPECTED_ENTRIES} an expected exit can hold: use a CIDR for a range.`,
    };
  const bad = entries.filter((e) => entryOf(e) === undefined);
  if (bad.length)
    return {
      ok: false,
      problem: `${bad.map((b) => `"${b}"`).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not an IPv4 or IPv6 address or CIDR (like 203.0.113.7 or 203.0.113.0/28).`,
    };
  return { ok: true, entries };
}

/** Whether `address` (a check's egress address) lies within one of `entries`; an address that is none is outside. */
export function exitWithin(entries: readonly string[], address: string): boolean {
  const seen = parseAddress(address.trim());
  if (!seen) return false;
  return entries.some((e) => {
    const prefix = entryOf(e);
    return prefix !== undefined && contains(prefix, seen);
  });
}

/** The entries in words: `203.0.113.7` or `203.0.113.0/28, 2001:db8::/48`. */
export const expectedExitWords = (entries: readonly string[]): string => entries.join(', ');
