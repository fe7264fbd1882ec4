/** The name an imported profile gets when its own is taken: suffix kept, base cut, always ends. */
import { describe, expect, it } from 'vitest';
import { importedName, MAX_NAME_LENGTH } from '../../../../main/services/profiles/profile-transfer';

const lower = (names: string[]) => new Set(names.map((n) => n.toLowerCase()));

describe('importedName', () => {
  it('keeps a free name as it is', () => {
    expect(importedName('Lab', lower(['Other']))).toBe('Lab');
  });

  it('adds " (imported)", then " (imported 2)" …, case-insensitively', () => {
    expect(importedName('Lab', lower(['lab']))).toBe('Lab (imported)');
    expect(importedName('Lab', lower(['lab', 'LAB (IMPORTED)']))).toBe('Lab (imported 2)');
  });

  it('cuts the base, never the suffix, for a name already at the limit', () => {
    const name = 'x'.repeat(MAX_NAME_LENGTH);
    const first = importedName(name, lower([name]));
    expect(first).toBe(`${'x'.repeat(MAX_NAME_LENGTH - ' (imported)'.length)} (imported)`);
    expect(first).toHaveLength(MAX_NAME_LENGTH);
    const second = importedName(name, lower([name, first]));
    expect(second).toMatch(/ \(imported 2\)$/);
    expect(second).toHaveLength(MAX_NAME_LENGTH);
  });

  it('does not split a character made of two UTF-16 units, nor end the base with a space', () => {
    const name = `${'a'.repeat(MAX_NAME_LENGTH - 12)} ${'😀'.repeat(5)}`.slice(0, MAX_NAME_LENGTH);
    const got = importedName(name, lower([name]));
    expect(got.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    expect(got).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(got).not.toMatch(/\s \(imported\)$/);
  });

  it('ends even when every candidate is taken: the search is bounded', () => {
    const everything = { has: () => true, size: 1 } as unknown as Set<string>;
    expect(() => importedName('Lab', everything)).toThrow(/no free name/i);
  });
});
