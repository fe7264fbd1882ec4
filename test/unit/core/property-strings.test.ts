/**
 * Defense in depth at the core: whatever reaches it, no user string can
 * inject options into a Proxmox property string (net0, ide2), no URL
 * carries a password, and a catalogue key is an own key of the profile's
 * catalogue, never a member JavaScript puts on every object.
 */
import { describe, expect, it } from 'vitest';
import { isProviderError, ProfileSchema } from '../../../main/core';
import { rewriteNet0 } from '../../../main/core/provider/rules/net0';
import { parseProfile } from '../../../main/core/provider/rules/profile';
import { resolvePlacement } from '../../../main/core/provider/cluster/placement';
import { configParams } from '../../../main/core/provider/rules/vm-params';

const good = {
  url: 'https://pve.home.lab:8006',
  nodes: ['pv1-1'],
  isoStorage: 'proxy-seeds',
  templates: { 'debian-13': { vmid: 9001 } },
  machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
  tls: { mode: 'system' },
  token: { kind: 'file', path: '/home/me/.config/proxmox-token' },
};
const config = { net0: 'virtio=BC:24:11:48:11:46,bridge=vmbr0', scsi0: 'local-lvm:vm-9001-disk-0,size=3G' };
const small = { cores: 1, memoryMiB: 1024 };
const injections = ['vmbr0,firewall=0', 'vmbr0=1', 'vmbr0;rm', 'vmbr0\nnet1: e1000', 'vmbr 0', ''];

function permanentOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    if (isProviderError(e) && e.kind === 'permanent') return e.message;
    throw e;
  }
  throw new Error('expected a permanent error');
}

describe('the core profile schema', () => {
  it.each(injections)('refuses the bridge %j', (bridge) => {
    const parsed = ProfileSchema.safeParse({ ...good, bridge });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toContain('bridge');
  });

  it('refuses a URL with a user or password', () => {
    const parsed = ProfileSchema.safeParse({ ...good, url: 'https://root:pw@pve.home.lab:8006' });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toMatch(/user name or password/);
  });

  it.each(['__proto__', 'constructor', 'toString'])('refuses %j as a catalogue key', (key) => {
    // Beside a good key, so the catalogue is not refused for being empty once the bad key is dropped.
    const templates = JSON.parse(`{"ok": {"vmid": 9000}, "${key}": {"vmid": 9000}}`);
    const machineTypes = JSON.parse(`{"ok": {"cores": 1, "memoryMiB": 512}, "${key}": {"cores": 1, "memoryMiB": 512}}`);
    for (const input of [
      { ...good, templates },
      { ...good, machineTypes },
    ]) {
      const parsed = ProfileSchema.safeParse(input);
      expect(parsed.success).toBe(false);
      expect(parsed.error!.issues[0]!.message).toBe(`"${key}" is a reserved name; choose another`);
    }
  });

  it('hands out catalogues without a prototype, so no inherited member answers a lookup', () => {
    const profile = parseProfile(good);
    expect(Object.getPrototypeOf(profile.templates)).toBeNull();
    expect(Object.getPrototypeOf(profile.machineTypes)).toBeNull();
    expect((profile.machineTypes as Record<string, unknown>).constructor).toBeUndefined();
  });
});

describe('property strings', () => {
  it.each(injections.filter(Boolean))('configParams refuses the bridge %j before writing net0', (bridge) => {
    expect(permanentOf(() => configParams({ bridge }, 100, config, small, 'proxy-seeds:iso/p-seed.iso'))).toMatch(/bridge/);
  });

  it.each([0.5, -3, 4095, Number.NaN])('configParams refuses the VLAN tag %d', (vlanTag) => {
    expect(permanentOf(() => configParams({ vlanTag }, 100, config, small, 'proxy-seeds:iso/p-seed.iso'))).toMatch(/VLAN tag/);
  });

  it.each([
    'proxy-seeds:iso/p,media=disk-seed.iso',
    'proxy-seeds:iso/p=x-seed.iso',
    'proxy-seeds:iso/p;x-seed.iso',
    'seeds:iso/p\n-seed.iso',
  ])('configParams refuses the seed volume %j', (volume) => {
    expect(permanentOf(() => configParams({}, 100, config, small, volume))).toMatch(/seed volume/);
  });

  it('rewriteNet0 refuses an injected bridge or an out-of-range tag itself', () => {
    expect(() => rewriteNet0(config.net0, 'vmbr0,firewall=0', undefined)).toThrow(/bridge/);
    expect(() => rewriteNet0(config.net0, undefined, 5000)).toThrow(/VLAN tag/);
    expect(rewriteNet0(config.net0, 'vmbr1', 7)).toBe('virtio=BC:24:11:48:11:46,bridge=vmbr1,tag=7');
  });
});

describe('placement lookups', () => {
  const profile = parseProfile(good);
  const request = (machineType: string, image: string) => ({ uid: 'u', name: 'proxy-a', placement: { machineType, image }, cloudInit: '' });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('refuses the machine type and template %j', (key) => {
    expect(permanentOf(() => resolvePlacement(profile, request(key, 'debian-13')))).toMatch(`placement.machineType "${key}"`);
    expect(permanentOf(() => resolvePlacement(profile, request('small', key)))).toMatch(`placement.image "${key}"`);
  });

  it('still refuses them on a catalogue that has a prototype (a profile built by hand)', () => {
    const byHand = { ...profile, templates: { ...profile.templates }, machineTypes: { ...profile.machineTypes } };
    expect(permanentOf(() => resolvePlacement(byHand, request('constructor', 'debian-13')))).toMatch(/machineType/);
    expect(permanentOf(() => resolvePlacement(byHand, request('small', 'toString')))).toMatch(/image/);
  });

  it.each(['proxy,a', 'proxy=a', 'proxy;a', 'proxy\na', 'proxy a'])('refuses the VM name %j', (name) => {
    expect(permanentOf(() => resolvePlacement(profile, { ...request('small', 'debian-13'), name }))).toMatch(/VM name/);
  });
});
