import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../main/core/provider/rules/profile';
import { ProviderError } from '../../../main/core/provider/rules/errors';

const good = {
  url: 'https://pve.home.lab:8006',
  nodes: ['pv1-1'],
  isoStorage: 'proxy-seeds',
  templates: { 'debian-13': { vmid: 9001 } },
  machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
  tls: { mode: 'system' },
  token: { kind: 'file', path: '/home/me/.config/proxmox-token' },
};

describe('parseProfile', () => {
  it('fills the seed defaults', () => {
    expect(parseProfile(good)).toMatchObject({
      vmidRange: { min: 100000, max: 199999 },
      requestTimeoutSeconds: 30,
      installGuestAgent: true,
    });
  });

  it('refuses a bad profile with every problem listed', () => {
    const bad = {
      ...good,
      url: 'http://pve/api2/json',
      nodes: ['PV1', 'a', 'a'],
      isoStorage: '1seeds',
      vlanTag: 4095,
      vmidRange: { min: 50, max: 40 },
      templates: {},
      machineTypes: { small: { cores: 0, memoryMiB: 1024, diskGiB: -1 } },
      tls: { mode: 'trust-me' },
      token: { kind: 'secret', tokenId: 'nope' },
    };
    let err: unknown;
    try {
      parseProfile(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProviderError);
    const lines = (err as ProviderError).message.split('\n').slice(1);
    const fields = lines.map((l) => l.split(':')[0]);
    expect((err as ProviderError).kind).toBe('permanent');
    for (const field of [
      'url',
      'nodes.0',
      'nodes',
      'isoStorage',
      'vlanTag',
      'vmidRange.min',
      'vmidRange.max',
      'machineTypes.small.cores',
      'machineTypes.small.diskGiB',
      'tls.mode',
      'token.tokenId',
    ]) {
      expect(fields).toContain(field);
    }
    // An empty template catalogue is no problem: the template builder fills it (issue 14).
    expect(fields).not.toContain('templates');
  });
});
