/**
 * A fast path for big listings (`/cluster/resources` at 5,000 VMs is
 * decoded every few seconds): an array of flat objects is read field by
 * field with plain type checks, building exactly what the zod schema would
 * (known keys only, in the schema's order). Anything it is not sure about
 * (a string holding a number, a missing or mistyped field) goes to the
 * full zod schema, so the accepted inputs and the error messages stay
 * zod's.
 */
import { z } from 'zod';
import { fastScalarKinds, NEEDS_FULL_READ, readScalarFast, type FastScalarKind } from './scalars';

function kindOf(key: string, schema: z.ZodType): FastScalarKind {
  const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  if (inner instanceof z.ZodString && (inner.def.checks ?? []).length === 0) return 'text';
  const kind = fastScalarKinds.get(inner);
  // A schema change the fast path does not know must fail loudly at start-up, not decode differently.
  if (!kind) throw new Error(`no fast reader for the field "${key}"`);
  return kind;
}

/** The decoder of `z.array(object)`'s usual inputs; undefined means "ask the full schema". */
export function fastArrayOf<T>(object: z.ZodObject): (value: unknown) => T[] | undefined {
  const shape = object.shape as Record<string, z.ZodType>;
  // Parallel arrays, read in the hot loop without destructuring.
  const keys = Object.keys(shape);
  const kinds = keys.map((key) => kindOf(key, shape[key]!));
  const optional = keys.map((key) => shape[key] instanceof z.ZodOptional);
  return (value) => {
    if (!Array.isArray(value)) return undefined;
    const out = new Array<T>(value.length);
    for (let i = 0; i < value.length; i++) {
      const entry: unknown = value[i];
      if (typeof entry !== 'object' || entry === null || Object.getPrototypeOf(entry) !== Object.prototype) return undefined;
      const input = entry as Record<string, unknown>;
      const decoded: Record<string, unknown> = {};
      for (let f = 0; f < keys.length; f++) {
        const key = keys[f]!;
        const v = input[key];
        if (v === undefined) {
          // zod keeps a present-but-undefined key; that rare case is left to it.
          if (!optional[f] || Object.hasOwn(input, key)) return undefined;
          continue;
        }
        const read = readScalarFast(kinds[f]!, v);
        if (read === NEEDS_FULL_READ) return undefined;
        decoded[key] = read;
      }
      out[i] = decoded as T;
    }
    return out;
  };
}
