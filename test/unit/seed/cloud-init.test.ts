/**
 * The seed as real cloud-init reads it (Debian's cloud-init package): seeds
 * built by the app's own builder, for every preset and for names a YAML 1.1
 * reader takes for something else (`yes`, `off`, `null`, `0x1`, `1e3`, `~`…),
 * written as real ISOs, extracted by xorriso and read by cloud-init's own
 * DataSourceNoCloud (nocloud-read.py), the user-data checked by
 * `cloud-init schema --config-file`. cloud-init 22.4 fails outright on a
 * plain `local-hostname: yes` and reads `off` as False: the guest would
 * boot with no user-data, no guest agent and no address.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { newInstanceId } from '../../../main/core/provider/cluster/seed-source';
import { GUEST_AGENT_SCRIPT } from '../../../main/core/seed/guest-agent-script';
import { buildSeedIso } from '../../../main/core/seed/nocloud';
import { presets } from '../../../renderer/src/views/create/presets';
import { newPassword } from '../../../main/services/proxy-credentials/store';
import { presetUserData } from '../../support/real-proxy';
import { ProxyName } from '../../../shared/channels/tasks';
import { missing, scratchDir, writeImage, xorrisoExtract } from './debian-tools';
import { filesByName } from './iso-reader';

const now = new Date('2026-03-04T05:06:07Z');
// Debian's python3, the one its cloud-init package installs into (not a python3 earlier on PATH).
const PYTHON = '/usr/bin/python3';
const DRIVER = join(import.meta.dirname, 'nocloud-read.py');

// Names the proxy-name rule accepts, each a boolean or null to YAML 1.1 when plain.
const proxyNames = ['yes', 'on', 'true', 'no', 'off', 'false', 'null', 'y', 'n', 'proxy-abc'];
// Names the rule refuses, fed to the seed builder directly: numbers, null, dates, tags YAML 1.1 resolves.
const otherNames = [
  '0x1',
  '1e3',
  '~',
  '012',
  '0b101',
  '1_000',
  '1:20',
  '-1',
  '2026-03-04',
  'NULL',
  'Yes',
  '=',
  '<<',
  '1.5',
  "it's",
  '"q"',
  'a #b',
  'caf\u00e9 \u{1F600}',
];

interface Case {
  why: string;
  name: string;
  instanceId: string;
  userData: string;
  vendorData?: string;
}

const seeded = [
  ...[...proxyNames, ...otherNames].map((name) => ({ why: `name ${JSON.stringify(name)}`, name, instanceId: name })),
  // A reconfigure's instance-id (seed-source.ts), and one that is itself a YAML 1.1 null.
  { why: 'a reconfigure of "off"', name: 'off', instanceId: newInstanceId('off', now) },
  { why: 'name "no", instance-id "~"', name: 'no', instanceId: '~' },
];
// Each with the next preset's user-data, in turn.
const cases: Case[] = seeded.map((c, i) => {
  const preset = presets[i % presets.length]!;
  return { ...c, userData: preset.render(preset.defaultPort) };
});
// Issue 24: every preset with credentials, its placeholders filled as main fills them for the seed.
const withCredentials = presets.map((p) => presetUserData(p.id, p.defaultPort, { username: 'egress', password: newPassword() }));
for (const [i, p] of presets.entries())
  cases.push({ why: `preset ${p.id} with credentials`, name: 'creds', instanceId: 'creds', userData: withCredentials[i]! });
// Every preset once more, on another port, with the profile's own vendor-data beside the guest agent script.
const configured = '#cloud-config\nntp:\n  enabled: true\n';
for (const p of presets)
  cases.push({ why: `preset ${p.id} on port 8080`, name: 'yes', instanceId: 'yes', userData: p.render(8080), vendorData: configured });

interface Read {
  error?: string;
  found: boolean;
  metadata: Record<string, unknown>;
  instanceId: string;
  hostname: string;
  userData: string;
  vendorParts: { type: string; body: string }[];
}

/** cloud-init's own YAML loader (cloudinit.util.load_yaml, PyYAML underneath) on each text, in one Python run. */
function loadYaml(texts: string[]): unknown[] {
  const script = 'import json, sys\nfrom cloudinit import util\nprint(json.dumps([util.load_yaml(t) for t in json.load(sys.stdin)]))';
  return JSON.parse(execFileSync(PYTHON, ['-c', script], { input: JSON.stringify(texts), encoding: 'utf8' })) as unknown[];
}

const absent = missing('cloud-init') ?? missing('xorriso');
let scratch: ReturnType<typeof scratchDir>;
let reads: Read[] = [];
const folders: string[] = [];

beforeAll(() => {
  if (absent) return;
  scratch = scratchDir();
  cases.forEach((c, i) => {
    const image = buildSeedIso({
      name: c.name,
      instanceId: c.instanceId,
      userData: c.userData,
      vendorData: c.vendorData,
      installGuestAgent: true,
      now,
    });
    const dir = join(scratch.path, `seed-${i}`);
    mkdirSync(dir);
    const { complaints } = xorrisoExtract(writeImage(scratch.path, `seed-${i}.iso`, image), dir);
    expect(complaints).toEqual([]);
    folders.push(join(dir, 'extracted'));
  });
  // One Python run reads every seed (cloud-init's imports take a while).
  const out = JSON.parse(execFileSync(PYTHON, [DRIVER], { input: JSON.stringify(folders), encoding: 'utf8', maxBuffer: 64 << 20 })) as {
    version: string;
    seeds: Read[];
  };
  console.log(`cloud-init ${out.version} (DataSourceNoCloud) read ${out.seeds.length} seeds`);
  reads = out.seeds;
}, 60_000);
afterAll(() => scratch?.remove());

describe.skipIf(absent !== undefined)("the seed as cloud-init's NoCloud datasource reads it", () => {
  it('the example names are what they say: the proxy-name rule accepts the first list and refuses the second', () => {
    expect(proxyNames.filter((n) => !ProxyName.safeParse(n).success)).toEqual([]);
    expect(otherNames.filter((n) => ProxyName.safeParse(n).success)).toEqual([]);
  });

  it.each(cases.map((c, i) => ({ ...c, i })))(
    '$why: the exact instance-id and hostname, the user-data byte for byte',
    ({ i, name, instanceId, userData }) => {
      const read = reads[i]!;
      expect(read.error).toBeUndefined();
      expect(read.found).toBe(true);
      // Strings, not true, false, null or numbers.
      expect(read.metadata).toEqual({ 'instance-id': instanceId, 'local-hostname': name });
      expect(read.instanceId).toBe(instanceId);
      // cloud-init takes the part before the first dot as the host name.
      expect(read.hostname).toBe(name.split('.')[0]);
      expect(Buffer.from(read.userData, 'base64').equals(Buffer.from(userData, 'utf8'))).toBe(true);
    },
  );

  it('hands the guest agent script, and the profile vendor-data beside it, to their handlers as written', () => {
    expect(reads[0]!.vendorParts).toEqual([{ type: 'text/x-shellscript', body: GUEST_AGENT_SCRIPT }]);
    expect(reads.at(-1)!.vendorParts).toEqual([
      { type: 'text/cloud-config', body: configured },
      { type: 'text/x-shellscript', body: GUEST_AGENT_SCRIPT },
    ]);
  });

  it('reads any name the seed builder accepts back as that exact string (cloudinit.util.load_yaml, 400 random names and the awkward ones)', () => {
    // A fixed sample, so a failure names the same strings on every run; the builder refuses what it cannot write.
    const awkward = [
      'a\u2028 b',
      'a\u2029b',
      'a\uFFFEb',
      ' lead',
      'trail ',
      'a\u00a0b',
      '---',
      '...',
      '- x',
      '? x',
      '&a',
      '*a',
      '!x',
      '%YAML 1.1',
      '@x',
      '|',
      '>',
      '#x',
      'a: b',
      '{a}',
      '[a]',
      '"',
      "'",
      '\\',
      '\uFEFFx',
      '\u{10FFFF}',
    ];
    const sample = fc.sample(fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: 'grapheme-ascii', maxLength: 8 })), {
      numRuns: 400,
      seed: 22,
    });
    const written = [...proxyNames, ...otherNames, ...awkward, ...sample].flatMap((name) => {
      try {
        const image = buildSeedIso({ name, userData: '', installGuestAgent: false, now });
        return [{ name, metaData: new TextDecoder().decode(filesByName(image).get('meta-data')) }];
      } catch {
        return [];
      }
    });
    expect(written.length).toBeGreaterThan(300);
    expect(loadYaml(written.map((w) => w.metaData))).toEqual(written.map((w) => ({ 'instance-id': w.name, 'local-hostname': w.name })));
  });

  it('reads every preset, on every port, as the config it was built from (cloudinit.util.load_yaml)', () => {
    const texts = presets.flatMap((p) => [p.defaultPort, 8080, 1, 65_535].map((port) => p.render(port)));
    expect(loadYaml(texts)).toEqual(texts.map((t) => parse(t)));
  });

  it.each(presets.map((p, n) => ({ id: p.id, i: cases.findIndex((c) => c.userData === withCredentials[n]) })))(
    'preset $id with credentials passes cloud-init schema --config-file as the guest finds it on the seed',
    ({ i }) => {
      const run = spawnSync('/usr/bin/cloud-init', ['schema', '--config-file', join(folders[i]!, 'user-data')], { encoding: 'utf8' });
      expect(`${run.stdout}${run.stderr}`.trim()).toBe(`Valid cloud-config: ${join(folders[i]!, 'user-data')}`);
      expect(run.status).toBe(0);
    },
  );

  it.each(presets.map((p) => ({ id: p.id, i: cases.findIndex((c) => c.userData === p.render(8080)) })))(
    'preset $id passes cloud-init schema --config-file as the guest finds it on the seed',
    ({ i }) => {
      const run = spawnSync('/usr/bin/cloud-init', ['schema', '--config-file', join(folders[i]!, 'user-data')], { encoding: 'utf8' });
      expect(`${run.stdout}${run.stderr}`.trim()).toBe(`Valid cloud-config: ${join(folders[i]!, 'user-data')}`);
      expect(run.status).toBe(0);
    },
  );
});
