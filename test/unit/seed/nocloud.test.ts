import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ProviderError } from '../../../main/core/provider/rules/errors';
import { GUEST_AGENT_SCRIPT } from '../../../main/core/seed/guest-agent-script';
import { SEED_LABEL, buildSeedIso, metaData, seedIsoName, seedVolumeId, type SeedRequest } from '../../../main/core/seed/nocloud';
import { filesByName, readIso } from './iso-reader';

const now = new Date('2026-03-04T05:06:07Z');
const userData = '#cloud-config\r\npackages: [squid]\r\nwrite_files:\n  - content: "caf\u00e9"\n';
const configured = '#cloud-config\nntp:\n  enabled: true\n';
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

function seed(overrides: Partial<SeedRequest> = {}) {
  return filesByName(buildSeedIso({ name: 'proxy-abc', userData, installGuestAgent: true, now, ...overrides }));
}

describe('seed names', () => {
  it('names the ISO file and the volume ide2 points at', () => {
    expect(seedIsoName('proxy-abc')).toBe('proxy-abc-seed.iso');
    expect(seedVolumeId('proxy-seeds', 'proxy-abc')).toBe('proxy-seeds:iso/proxy-abc-seed.iso');
  });
  it('writes meta-data with the name as instance id and hostname', () => {
    expect(metaData('proxy-abc')).toBe('instance-id: "proxy-abc"\nlocal-hostname: "proxy-abc"\n');
  });
});

// cloud-init reads meta-data with PyYAML, a YAML 1.1 reader: plain, each of these is a boolean, a null, a
// number, a date or a tag, never the proxy's name (cloud-init.test.ts shows what real cloud-init makes of them).
const yaml11Words = [
  'yes',
  'on',
  'true',
  'no',
  'off',
  'false',
  'null',
  'y',
  'n',
  '~',
  'NULL',
  'Yes',
  '0x1',
  '1e3',
  '012',
  '1_000',
  '1:20',
  '-1',
  '1.5',
  '2026-03-04',
  '=',
  '<<',
];

describe('meta-data as a YAML 1.1 reader reads it', () => {
  it.each(yaml11Words)('the name %j is the instance-id and the hostname, as a string', (name) => {
    for (const version of ['1.1', '1.2'] as const)
      expect(parse(metaData(name), { version }), version).toEqual({ 'instance-id': name, 'local-hostname': name });
    expect(parse(metaData('off', name), { version: '1.1' })).toEqual({ 'instance-id': name, 'local-hostname': 'off' });
  });

  it('holds any name the seed builder accepts as that exact string (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...yaml11Words), fc.string({ unit: 'binary', maxLength: 40 })), (name) => {
        let image: Uint8Array;
        try {
          image = buildSeedIso({ name, userData, installGuestAgent: false, now });
        } catch (e) {
          expect(e).toBeInstanceOf(ProviderError);
          return;
        }
        const metaData = text(filesByName(image).get('meta-data'))!;
        expect(parse(metaData, { version: '1.1' })).toEqual({ 'instance-id': name, 'local-hostname': name });
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildSeedIso', () => {
  it('holds exactly user-data, meta-data and vendor-data under the cidata label', () => {
    const image = buildSeedIso({ name: 'proxy-abc', userData, installGuestAgent: true, now });
    const read = readIso(image);
    expect(read.label).toBe(SEED_LABEL);
    expect(read.files.map((f) => f.name).sort()).toEqual(['meta-data', 'user-data', 'vendor-data']);
  });

  it.each([
    { why: 'agent script by default', vendorData: undefined, agent: true, want: GUEST_AGENT_SCRIPT },
    { why: 'agent off passes the configured document through', vendorData: configured, agent: false, want: configured },
    { why: 'agent off with nothing configured is an empty file, still present', vendorData: undefined, agent: false, want: '' },
  ])('vendor-data: $why; user-data and meta-data unchanged', ({ vendorData, agent, want }) => {
    const files = seed({ vendorData, installGuestAgent: agent });
    expect(text(files.get('user-data'))).toBe(userData);
    expect(text(files.get('meta-data'))).toBe('instance-id: "proxy-abc"\nlocal-hostname: "proxy-abc"\n');
    expect(text(files.get('vendor-data'))).toBe(want);
  });

  it('vendor-data: configured document and agent script joined as a multipart', () => {
    const vendor = text(seed({ vendorData: configured }).get('vendor-data')) ?? '';
    expect(vendor.startsWith('MIME-Version: 1.0\r\n')).toBe(true);
    expect(vendor).toContain(configured);
    expect(vendor).toContain(GUEST_AGENT_SCRIPT);
  });

  it('writes user-data byte for byte: UTF-8 of the string, CR LF, emoji and a BOM untouched', () => {
    const odd = '\uFEFF#cloud-config\r\n# \u{1F680} \u00e9\u0000\t\r\n\n';
    expect(seed({ userData: odd }).get('user-data')).toEqual(new TextEncoder().encode(odd));
  });

  it('is identical for the same request and time, and differs when the time does', () => {
    const a = buildSeedIso({ name: 'proxy-abc', userData, vendorData: configured, installGuestAgent: true, now });
    const b = buildSeedIso({ name: 'proxy-abc', userData, vendorData: configured, installGuestAgent: true, now: new Date(now) });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const later = buildSeedIso({
      name: 'proxy-abc',
      userData,
      vendorData: configured,
      installGuestAgent: true,
      now: new Date(now.getTime() + 1000),
    });
    expect(Buffer.from(a).equals(Buffer.from(later))).toBe(false);
  });
});

describe('buildSeedIso, for any user-data (property, in process)', () => {
  it('writes any well-formed text as its exact UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 5000 }), (userData) => {
        const files = seed({ userData });
        expect(Buffer.compare(files.get('user-data')!, new TextEncoder().encode(userData))).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('writes any run of UTF-16 units byte for byte, or refuses it when it has no UTF-8 form', () => {
    const codeUnit = fc.nat(0xffff).map((n) => String.fromCharCode(n));
    fc.assert(
      fc.property(fc.string({ unit: codeUnit, maxLength: 200 }), (userData) => {
        const wellFormed = Buffer.from(userData, 'utf8').toString('utf8') === userData;
        if (wellFormed) expect(Buffer.compare(seed({ userData }).get('user-data')!, Buffer.from(userData, 'utf8'))).toBe(0);
        else expect(() => seed({ userData })).toThrow(ProviderError);
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildSeedIso refusals', () => {
  const sentinel = 'SENTINEL-cloud-init-payload';
  it.each([
    { why: 'an empty name', name: '', userData: `#cloud-config\n# ${sentinel}\n` },
    { why: 'a name with a line break (it would add keys to meta-data)', name: 'proxy\ninstance-id: x', userData: sentinel },
    { why: 'a name with a slash', name: 'a/b', userData: sentinel },
    { why: 'a name with a Unicode line separator (a line break to YAML 1.1)', name: 'yes\u2028 b', userData: sentinel },
    { why: 'a name with U+FFFE (PyYAML refuses the file)', name: 'a\uFFFEb', userData: sentinel },
    { why: 'a name with an unpaired surrogate (no UTF-8 form)', name: 'a\uD800b', userData: sentinel },
    { why: 'user-data with an unpaired surrogate (no UTF-8 form)', name: 'proxy-abc', userData: `${sentinel}\uD800` },
    { why: 'vendor-data with an unpaired surrogate', name: 'proxy-abc', userData: sentinel, vendorData: `${sentinel}\uDC00` },
  ])('refuses $why as permanent, without quoting the cloud-init text', ({ name, userData, vendorData = sentinel }) => {
    let thrown: unknown;
    try {
      buildSeedIso({ name, userData, vendorData, installGuestAgent: true, now });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ProviderError);
    const error = thrown as ProviderError;
    expect(error.kind).toBe('permanent');
    expect(error.hint.length).toBeGreaterThan(0);
    // Everything the error carries: own fields (kind, hint, op, id), the message and the stack.
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(sentinel);
  });
});
