/**
 * The GC mark in a VM's description (spec entry 8): the operator's three
 * lines, written in the clone call so a VM of ours is never unmarked.
 */
export const MARK_MANAGED_KEY = 'proxy-operator-managed';
export const MARK_UID_KEY = 'proxy-operator-uid';
export const MARK_CREATED_AT_KEY = 'proxy-operator-created-at';
const MANAGED_YES = 'true';

export interface Mark {
  /** True only when the managed line's value is exactly `true`. */
  managed: boolean;
  /** Empty when the line is missing. */
  uid: string;
  /** Undefined when missing or unreadable: GC treats that as old. */
  createdAt: Date | undefined;
}

/** RFC 3339 in UTC without fractional seconds, like Go's time.RFC3339. */
function rfc3339(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function formatMark(uid: string, createdAt: Date): string {
  return `${MARK_MANAGED_KEY}=${MANAGED_YES}\n${MARK_UID_KEY}=${uid}\n${MARK_CREATED_AT_KEY}=${rfc3339(createdAt)}`;
}

const rfc3339Pattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function parseTime(value: string): Date | undefined {
  if (!rfc3339Pattern.test(value)) return undefined;
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? undefined : t;
}

/**
 * Reads `key=value` lines, tolerating CRLF, blank lines and lines an admin
 * added. The first occurrence of a key wins, so an admin's later copy cannot
 * take over a VM.
 */
export function parseMark(description: string | undefined): Mark {
  const seen = new Map<string, string>();
  for (const line of (description ?? '').split('\n')) {
    const trimmed = line.trim();
    const eq = trimmed.indexOf('=');
    if (eq < 0) continue;
    const key = trimmed.slice(0, eq);
    if (!seen.has(key)) seen.set(key, trimmed.slice(eq + 1));
  }
  const created = seen.get(MARK_CREATED_AT_KEY);
  return {
    managed: seen.get(MARK_MANAGED_KEY) === MANAGED_YES,
    uid: seen.get(MARK_UID_KEY) ?? '',
    createdAt: created === undefined ? undefined : parseTime(created),
  };
}
