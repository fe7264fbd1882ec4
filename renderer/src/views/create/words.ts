/**
 * Why a name or a count is refused, in a sentence that names the field and
 * the rule. Whether it is refused is always decided by main's own schema
 * (ProxyName, CreateProxiesInput.count); these functions only find the
 * words for a value the schema already refused, so no zod text reaches the user.
 */
import { CreateProxiesInput, ProxyName } from '../../../../shared/channels/tasks';
import { bulkProxyNames, longestPrefixFor, PROXY_NAME_MAX } from '../../../../shared/domain/proxy-names';

const countSchema = CreateProxiesInput.shape.count;
const COUNT_MIN = countSchema.minValue ?? 1;
const COUNT_MAX = countSchema.maxValue ?? 50;

const quote = (s: string) => `“${s}”`;

/** The sentence for a name ProxyName refused; picks the first rule it breaks. */
export function nameWords(name: string): string {
  if (name.length > PROXY_NAME_MAX)
    return `Names are at most ${PROXY_NAME_MAX} characters: DNS labels and Proxmox allow no more (this one has ${name.length}).`;
  if (/\s/.test(name)) return 'Names cannot contain spaces: use a dash instead, as in “my-proxy”.';
  const foreign = [...name].find((c) => c.charCodeAt(0) > 0x7f);
  if (foreign) return `Names use the plain letters a to z only: ${quote(foreign)} is not one (no accents or other alphabets).`;
  if (/[A-Z]/.test(name)) return `Names are lower case: write ${quote(name)} as ${quote(name.toLowerCase())}.`;
  if (/[/.]/.test(name)) return 'Names cannot contain “/” or “.”: a name is one DNS label of lower-case letters, digits and dashes.';
  const other = [...name].find((c) => !/[a-z0-9-]/.test(c));
  if (other) return `Names cannot contain ${quote(other)}: use lower-case letters, digits and dashes.`;
  if (name.startsWith('-')) return 'Names start with a letter, not a dash.';
  if (/^[0-9]/.test(name)) return 'Names start with a letter, not a digit.';
  if (name.endsWith('-')) return 'Names end with a letter or a digit, not a dash.';
  return 'Names use lower-case letters, digits and dashes, start with a letter and end with a letter or a digit.';
}

/** The count as a number, and the sentence when main's schema would refuse it. */
export function countProblem(raw: string): { count: number; problem: string | undefined } {
  const text = raw.trim();
  const count = text === '' ? Number.NaN : Number(text);
  const parsed = countSchema.safeParse(count);
  if (parsed.success) return { count, problem: undefined };
  const range = `from ${COUNT_MIN} to ${COUNT_MAX}`;
  const issue = parsed.error.issues[0];
  if (text === '' || Number.isNaN(count) || !Number.isFinite(count))
    return { count, problem: `Count is how many proxies to create: a whole number ${range}.` };
  if (issue?.code === 'too_small') return { count, problem: `Count must be at least ${COUNT_MIN}: ${text} proxies is nothing to create.` };
  if (issue?.code === 'too_big')
    return { count, problem: `Count is at most ${COUNT_MAX} proxies at once: create ${text} in more than one go.` };
  return { count, problem: `Count must be a whole number ${range}: ${text} proxies cannot be made.` };
}

export interface NamesCheck {
  /** The names main will give the proxies; empty when main picks random ones or the count is wrong. */
  names: string[];
  problem: string | undefined;
}

/**
 * The names a create will make (the shared rule main uses), each checked
 * with ProxyName, then against `takenBy` (a VM or a running create that
 * already has it, in words).
 */
export function checkNames(name: string, count: number, takenBy: (name: string) => string | undefined): NamesCheck {
  if (name === '') {
    if (count > 1)
      return {
        names: [],
        problem: `A create of ${count} proxies needs a name prefix: they are named <prefix>-1 … <prefix>-${count}. For a random name, create one at a time.`,
      };
    return { names: [], problem: undefined };
  }
  const names = bulkProxyNames(count, name);
  const bad = names.find((n) => !ProxyName.safeParse(n).success);
  if (bad !== undefined) {
    if (count > 1 && bad.length > PROXY_NAME_MAX && name.length <= PROXY_NAME_MAX) {
      const last = names[names.length - 1]!;
      return {
        names,
        problem: `With a count of ${count} the names run up to ${quote(last)}, ${last.length} characters: names are at most ${PROXY_NAME_MAX} characters (DNS labels and Proxmox allow no more). Shorten the prefix to ${longestPrefixFor(count)} characters or fewer.`,
      };
    }
    return { names, problem: nameWords(count > 1 && !ProxyName.safeParse(name).success ? name : bad) };
  }
  for (const n of names) {
    const owner = takenBy(n);
    if (owner) return { names, problem: owner };
  }
  return { names, problem: undefined };
}

/** "web-1, web-2, web-3" or, for many, "web-1, web-2, web-3, …, web-20". */
export function namesPreview(names: readonly string[]): string {
  if (names.length <= 4) return names.join(', ');
  return `${names.slice(0, 3).join(', ')}, …, ${names[names.length - 1]}`;
}
