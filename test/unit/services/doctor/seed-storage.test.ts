import { describe, expect, it } from 'vitest';
import { chooseSeedStorage } from '../../../../main/services/doctor/seed-storage';

const store = (node: string, storage: string, content: string[], over = {}) => ({
  node,
  storage,
  type: 'dir',
  content,
  shared: false,
  active: true,
  dedicated: content.every((c) => c === 'iso'),
  ...over,
});

describe('chooseSeedStorage', () => {
  it('prefers a dedicated ISO storage present on every node, and says why', () => {
    const storages = ['a', 'b'].flatMap((n) => [store(n, 'local', ['iso', 'backup']), store(n, 'isos', ['iso'])]);
    expect(chooseSeedStorage(storages, ['a', 'b'])).toMatchObject({
      storage: 'isos',
      dedicated: true,
      reason: expect.stringContaining('cannot touch backups'),
    });
  });

  it('a dedicated storage missing on one node is not chosen; the shared-purpose one is, with the advice to make a dedicated one', () => {
    const storages = [store('a', 'local', ['iso', 'backup']), store('b', 'local', ['iso', 'backup']), store('a', 'isos', ['iso'])];
    const choice = chooseSeedStorage(storages, ['a', 'b']);
    expect(choice).toMatchObject({ storage: 'local', dedicated: false });
    expect(choice!.reason).toContain('also holds backup');
    expect(choice!.reason).toContain('pvesm add dir proxy-seeds');
  });

  it("the profile's storage is kept when usable, refused when inactive; none at all gives undefined", () => {
    const storages = [store('a', 'local', ['iso', 'backup']), store('a', 'isos', ['iso'], { active: false })];
    expect(chooseSeedStorage(storages, ['a'], 'local')?.reason).toMatch(/^the profile's choice/);
    expect(chooseSeedStorage(storages, ['a'], 'isos')).toBeUndefined();
    expect(chooseSeedStorage([], ['a'])).toBeUndefined();
  });
});
