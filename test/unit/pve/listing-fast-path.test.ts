/**
 * The listing's fast path (main/core/pve/fast-array.ts) must be invisible:
 * for any input, ClusterResourcesSchema answers exactly what the plain zod
 * array of ClusterResourceSchema answers, same values, same key order, same
 * error messages and paths.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fixtureJson } from '../../../fixtures';
import * as S from '../../../main/core/pve/schemas';

const reference = z.array(S.ClusterResourceSchema);

function outcome(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  return r.success ? `ok ${JSON.stringify(r.data)}` : `error ${JSON.stringify(r.error.issues.map((i) => [i.path, i.message, i.code]))}`;
}

const scalar = fc.oneof(
  fc.constantFrom(0, 1, -0, 2.5, 1e21, '0', '1', '101', ' 7 ', '1e3', 'x', '', true, false, null, 'a,b, ,c', Number.MAX_SAFE_INTEGER + 2),
  fc.jsonValue({ maxDepth: 1 }),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
);
const keys = ['id', 'type', 'node', 'status', 'vmid', 'name', 'template', 'tags', 'content', 'shared', 'maxmem', 'cpu', 'uptime', 'extra'];
const entry = fc.record(Object.fromEntries(keys.map((k) => [k, scalar])), { requiredKeys: [] });
const wellFormed = fc.record(
  {
    id: fc.string({ maxLength: 8 }),
    type: fc.constantFrom('qemu', 'node', 'storage'),
    vmid: fc.nat(),
    name: fc.string({ maxLength: 8 }),
    template: fc.constantFrom(0, 1, true, false, '0', '1'),
    content: fc.oneof(fc.string({ maxLength: 12 }), fc.array(fc.string({ maxLength: 4 }))),
    maxmem: fc.double({ noNaN: true, noDefaultInfinity: true }),
    memhost: fc.nat(),
  },
  { requiredKeys: ['id', 'type'] },
);

describe('the /cluster/resources fast path', () => {
  it('decodes the captured listings exactly as the zod schema does', () => {
    for (const name of ['cluster_resources', 'cluster_resources_during_clone', 'cluster_resources_during_destroy']) {
      const data = fixtureJson<{ data: unknown }>(name)!.data;
      expect(outcome(S.ClusterResourcesSchema, data)).toBe(outcome(reference, data));
    }
  });

  it('answers like the zod schema for well-formed, near-miss and arbitrary listings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(wellFormed, { maxLength: 5 }), fc.array(entry, { maxLength: 4 }), fc.jsonValue()), (value) => {
        expect(outcome(S.ClusterResourcesSchema, value)).toBe(outcome(reference, value));
      }),
      { numRuns: 3000 },
    );
  });

  it('names the failing entry and field in its error, like zod', () => {
    const listing = [
      { id: 'qemu/1', type: 'qemu' },
      { id: 'qemu/2', type: 'qemu', vmid: 'one' },
    ];
    const r = S.ClusterResourcesSchema.safeParse(listing);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['1.vmid']);
    expect(r.error?.issues[0]?.message).toBe(reference.safeParse(listing).error?.issues[0]?.message);
  });

  it('drops fields the app does not read and reads 0/1 flags and comma lists', () => {
    expect(
      S.ClusterResourcesSchema.parse([{ id: 'storage/pve1/local', type: 'storage', content: 'iso, vztmpl', shared: 0, diskread: 5 }]),
    ).toStrictEqual([{ id: 'storage/pve1/local', type: 'storage', content: ['iso', 'vztmpl'], shared: false }]);
  });
});
