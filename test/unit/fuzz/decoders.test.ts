/**
 * Every response decoder of the Proxmox client (main/core/pve/schemas.ts),
 * fed arbitrary JSON and near-miss shapes: each answers with a result, never
 * an exception, and quickly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ZodType } from 'zod';
import * as schemas from '../../../main/core/pve/schemas';

const decoders = Object.entries(schemas as Record<string, unknown>).filter((e): e is [string, ZodType] => e[1] instanceof ZodType);

/** Arbitrary JSON, plus arrays and objects of objects, which get past a decoder's first check and into its fields. */
const answers = fc.oneof(
  fc.jsonValue(),
  fc.array(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })), { maxLength: 6 }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })),
);

describe('response decoders under arbitrary answers', () => {
  it('covers every decoder the client uses', () => {
    expect(decoders.map(([name]) => name)).toEqual(
      expect.arrayContaining(['ClusterResourcesSchema', 'TaskStatusSchema', 'VmConfigSchema']),
    );
  });

  it.each(decoders)('%s never throws and answers within the run budget', (_name, schema) => {
    const started = Date.now();
    fc.assert(
      fc.property(answers, (answer) => {
        const result = schema.safeParse(answer);
        expect(typeof result.success).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
