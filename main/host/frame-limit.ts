/**
 * How big one browser-mode socket frame may be, derived from the contract:
 * the largest bounded text any channel accepts (today `profiles.import`'s
 * JSON text), at the worst JSON escaping, plus room for the request around
 * it. Any input the contract accepts fits in one frame; anything bigger is
 * refused by the socket (close code 1009) before it is buffered.
 */
import { channels, type ChannelName } from '../../shared/contract';

/** JSON.stringify writes a control character or a lone surrogate (one UTF-16 unit) as `\uXXXX`: six bytes. */
const WORST_JSON_BYTES_PER_CHAR = 6;
/** The request around the text: type, id, channel, the other (small, bounded) fields. */
const REQUEST_ALLOWANCE_BYTES = 64 * 1024;

interface ZodLike {
  _zod: { def: Record<string, unknown> & { type: string; getter?: () => unknown } };
  maxLength?: number | null;
}

const isSchema = (v: unknown): v is ZodLike => typeof v === 'object' && v !== null && '_zod' in v;

/** Every string schema reachable from `schema` (object shapes, arrays, unions, optionals, pipes, records, lazies). */
function stringsIn(schema: ZodLike, seen = new Set<ZodLike>(), found: ZodLike[] = []): ZodLike[] {
  if (seen.has(schema)) return found;
  seen.add(schema);
  const def = schema._zod.def;
  if (def.type === 'string') found.push(schema);
  if (def.type === 'lazy' && def.getter) {
    const inner = def.getter();
    if (isSchema(inner)) stringsIn(inner, seen, found);
  }
  for (const [key, value] of Object.entries(def)) {
    if (key === 'checks') continue;
    const children = isSchema(value)
      ? [value]
      : Array.isArray(value)
        ? value
        : value && typeof value === 'object'
          ? Object.values(value)
          : [];
    for (const child of children) if (isSchema(child)) stringsIn(child, seen, found);
  }
  return found;
}

/** The channel with the largest bounded text input, and that bound in UTF-16 units (zod's `.max()`). */
export function largestTextInput(): { channel: ChannelName; maxChars: number } {
  let best: { channel: ChannelName; maxChars: number } = { channel: 'app.echo', maxChars: 0 };
  for (const [channel, spec] of Object.entries(channels) as [ChannelName, { input: unknown }][]) {
    if (!isSchema(spec.input)) continue;
    for (const s of stringsIn(spec.input)) {
      if (typeof s.maxLength === 'number' && s.maxLength > best.maxChars) best = { channel, maxChars: s.maxLength };
    }
  }
  return best;
}

/** The socket's maxPayload: the largest contract text, every character escaped, plus the request around it. */
export const MAX_FRAME_BYTES = largestTextInput().maxChars * WORST_JSON_BYTES_PER_CHAR + REQUEST_ALLOWANCE_BYTES;
