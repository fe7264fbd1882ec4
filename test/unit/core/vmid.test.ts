import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fnv1a64, vmidFor } from '../../../main/core/provider/rules/vmid';

const defaultRange = { min: 100_000, max: 199_999 };

describe('vmidFor', () => {
  // Vectors from the issue (equal to the Go provider's) and from an independent Python FNV-1a.
  it.each([
    ['3f1c2d7e-8a44-4f1b-9a6c-1d2e3f4a5b6c', defaultRange, 0, 184275],
    ['00000000-0000-0000-0000-000000000000', defaultRange, 0, 119089],
    ['00000000-0000-0000-0000-000000000000', defaultRange, 31, 119120],
    ['žluťoučký-uid', { min: 100, max: 999_999_999 }, 5, 388989779],
    ['', { min: 100, max: 109 }, 3, 100],
    ['x', defaultRange, 100_000, 147271],
  ] as const)('%s in %o attempt %d is %d', (uid, range, attempt, want) => {
    expect(vmidFor(uid, range, attempt)).toBe(want);
  });

  it('hashes the full 64 bits (values above 2^53 stay exact)', () => {
    expect(fnv1a64('3f1c2d7e-8a44-4f1b-9a6c-1d2e3f4a5b6c')).toBe(0xc0905dc4da1200b3n);
    expect(fnv1a64('')).toBe(0xcbf29ce484222325n);
  });

  it('stays in range, steps one forward per attempt and wraps at max', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.integer({ min: 100, max: 1000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.nat(2000),
        (uid, min, width, attempt) => {
          const range = { min, max: min + width };
          const span = width + 1;
          const first = vmidFor(uid, range, 0);
          const got = vmidFor(uid, range, attempt);
          expect(got).toBeGreaterThanOrEqual(range.min);
          expect(got).toBeLessThanOrEqual(range.max);
          expect(got).toBe(range.min + ((first - range.min + attempt) % span));
        },
      ),
    );
  });
});
