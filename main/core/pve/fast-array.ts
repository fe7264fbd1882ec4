/**
 * A fast path for big listings (`/cluster/resources` at 5,000 VMs is
 * decoded every few seconds): an array of flat objects is read field by
 * field with plain type checks, building exactly what the zod schema would
 * (known keys only, in the schema's order). Anything it is not sure about
 * — a string holding a number, a missing or mistyped field — goes to the
 * full zod schema, so the accepted inputs and the error messages stay
 * zod's.
 */
import { z } from 'zod';
import { fastScalarReaders, NEEDS_FULL_READ, type FastScalarReader } from './scalars';

const plainString: FastScalarReader = (v) => (typeof v === 'string' ? v : NEEDS_FULL_READ);

interface Field {
  key: string;
  optional: boolean;
  read: FastScalarReader;
}

function fieldOf(key: string, schema: z.ZodType): Field {
  const optional = schema instanceof z.ZodOptional;
  const inner = optional ? (schema.unwrap() as z.ZodType) : schema;
  const unchecked = inner instanceof z.ZodString && (inner.def.checks ?? []).length === 0;
  const read = unchecked ? plainString : fastScalarReaders.get(inner);
  // A schema change the fast path does not know must fail loudly at start-up, not decode differently.
  if (!read) throw new Error(`no fast reader for the field "${key}"`);
  return { key, optional, read };
}

/** The decoder of `z.array(object)`'s usual inputs; undefined means "ask the full schema". */
export function fastArrayOf<T>(object: z.ZodObject): (value: unknown) => T[] | undefined {
  const fields = Object.entries(object.shape as Record<string, z.ZodType>).map(([key, schema]) => fieldOf(key, schema));
  return (value) => {
    if (!Array.isArray(value)) return undefined;
    const out: T[] = new Array<T>(value.length);
    for (let i = 0; i < value.length; i++) {
      const entry: unknown = value[i];
      if (typeof entry !== 'object' || entry === null || Object.getPrototypeOf(entry) !== Object.prototype) return undefined;
      const input = entry as Record<string, unknown>;
      const decoded: Record<string, unknown> = {};
      for (const { key, optional, read } of fields) {
        const v = input[key];
        if (v === undefined) {
          // zod keeps a present-but-undefined key; that rare case is left to it.
          if (!optional || Object.hasOwn(input, key)) return undefined;
          continue;
        }
        const read_ = read(v);
        if (read_ === NEEDS_FULL_READ) return undefined;
        decoded[key] = read_;
      }
      out[i] = decoded as T;
    }
    return out;
  };
}
