import { describe, expect, it } from 'vitest';
import { mapState } from '../../../main/core/provider/rules/vm-state';

describe('mapState', () => {
  it.each([
    ['running', 'running', '10.0.0.1', 'running'],
    ['running', 'running', '', 'provisioning'],
    ['running', undefined, '', 'provisioning'],
    ['running', 'prelaunch', '', 'provisioning'],
    ['running', 'paused', '', 'stopped'],
    ['running', 'suspended', '', 'stopped'],
    ['running', 'io-error', '', 'stopped'],
    ['stopped', 'stopped', '', 'stopped'],
    ['weird', undefined, '', 'stopped'],
  ] as const)('%s/%s with ip %j is %s', (status, qmp, ip, want) => {
    expect(mapState(status, qmp, ip)).toBe(want);
  });
});
