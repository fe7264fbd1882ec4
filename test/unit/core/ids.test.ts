import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatProviderId, parseProviderId } from '../../../main/core/provider/rules/ids';
import { isProviderError } from '../../../main/core/provider/rules/errors';

describe('provider ID', () => {
  it('round-trips every valid VMID and name', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 999_999_999 }), fc.stringMatching(/^[a-z0-9-]{1,40}$/), (vmid, name) => {
        expect(parseProviderId(formatProviderId(vmid, name))).toEqual({ vmid, name });
      }),
    );
    expect(formatProviderId(150042, 'proxy-x')).toBe('vms/150042/proxy-x');
  });

  it.each([
    '',
    'vms',
    'vms/150042',
    'vms/150042/',
    'vms//proxy-x',
    'vm/150042/proxy-x',
    'hosts/beelink/domains/proxy-x',
    'vms/150042/proxy-x/extra',
    'vms/abc/proxy-x',
    'vms/0150042/proxy-x',
    'vms/+150042/proxy-x',
    'vms/-5/proxy-x',
    'vms/99/proxy-x',
    'vms/1000000000/proxy-x',
    'vms/1e5/proxy-x',
    'vms/150042.0/proxy-x',
    'vms/ 150042/proxy-x',
  ])('refuses %j as permanent', (id) => {
    let thrown: unknown;
    try {
      parseProviderId(id);
    } catch (e) {
      thrown = e;
    }
    expect(isProviderError(thrown, 'permanent')).toBe(true);
  });
});
