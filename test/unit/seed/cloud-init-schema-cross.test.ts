/**
 * Issue 25 item 1: the app's schema check (shared/domain/cloud-init-schema.ts,
 * ajv over the vendored cloud-init 22.4.2 schema) against Debian's real
 * cloud-init (`cloud-init schema --config-file`, no root and no datasource
 * needed) on a corpus: every Create preset, the operator's sample and broken
 * documents a user could write. The verdict must be the same for each, or
 * the difference is listed in `differences` with the reason.
 *
 * cloud-init's own verdict: exit 0 is valid; "Cloud config schema errors:"
 * is a refusal. A deprecated key is valid to both (cloud-init 22.4 prints
 * "Cloud config schema deprecations: …" and exits 0).
 *
 * network-config v2 is not in this cross-check: Debian's cloud-init 22.4
 * has no network-config schema (`cloud-init schema` checks cloud-config
 * only; the v2 schema arrived in 24.2), so there is no program here to
 * agree with; test/integration/services/profiles/vendor-data-schema.test.ts
 * checks the app's network-config verdicts.
 */
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { presets } from '../../../renderer/src/views/create/presets';
import { schemaProblems } from '../../../shared/domain/cloud-init-schema';
import { missing, scratchDir } from './debian-tools';

const SAMPLE = join(import.meta.dirname, '../../../../shared/seeds/extracted/sample-proxy-proxmox.yaml');
const h = '#cloud-config\n';

/** What a user could get wrong, each one refused by cloud-init 22.4. */
const broken: Record<string, string> = {
  'runcmd not a list': `${h}runcmd: systemctl restart squid\n`,
  'packages a single word': `${h}packages: squid\n`,
  'write_files entry without path': `${h}write_files:\n  - content: hi\n`,
  'write_files key typed wrong': `${h}write_files:\n  - path: /etc/x\n    contnet: hi\n`,
  'write_files permissions a number': `${h}write_files:\n  - path: /etc/x\n    content: hi\n    permissions: 644\n`,
  'write_files encoding unknown': `${h}write_files:\n  - path: /etc/x\n    content: hi\n    encoding: rot13\n`,
  'write_files a mapping': `${h}write_files:\n  path: /etc/x\n  content: hi\n`,
  'write_files defer a word': `${h}write_files:\n  - path: /etc/x\n    defer: "yes"\n`,
  'users key typed wrong': `${h}users:\n  - name: ops\n    sudoo: ALL=(ALL) NOPASSWD:ALL\n`,
  'users lock_passwd a word': `${h}users:\n  - name: ops\n    lock_passwd: "no"\n`,
  'users entry a number': `${h}users:\n  - 42\n`,
  'package_update a word': `${h}package_update: "yes"\n`,
  'hostname a number': `${h}hostname: 42\n`,
  'timezone a list': `${h}timezone: [UTC]\n`,
  'ntp enabled a word': `${h}ntp:\n  enabled: maybe\n`,
  'ntp servers not a list': `${h}ntp:\n  servers: pool.ntp.org\n`,
  'bootcmd a number': `${h}bootcmd: 3\n`,
  'apt key unknown': `${h}apt:\n  preserve_source_list: true\n`,
  'power_state mode unknown': `${h}power_state:\n  mode: explode\n`,
  'power_state timeout a word': `${h}power_state:\n  mode: reboot\n  timeout: soon\n`,
  'ssh_authorized_keys a single key': `${h}ssh_authorized_keys: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA you@laptop\n`,
  'chpasswd expire a word': `${h}chpasswd:\n  expire: "no"\n`,
  'growpart mode unknown': `${h}growpart:\n  mode: sometimes\n`,
  'resize_rootfs a word': `${h}resize_rootfs: maybe\n`,
  'locale a number': `${h}locale: 5\n`,
  'final_message a list': `${h}final_message: [done]\n`,
};

/** Fine to both, and a top-level key no module reads: a warning here, valid to cloud-init. */
const fine: Record<string, string> = {
  'hostname only': `${h}hostname: egress-1\n`,
  'a top-level typo (warned, not refused)': `${h}packges: [squid]\n`,
  'write_files with octal permissions': `${h}write_files:\n  - path: /etc/x\n    content: hi\n    permissions: "0644"\n`,
  // Deprecated (package_update's old name): `cloud-init schema` names it and still exits 0.
  'a deprecated key only (apt_update)': `${h}apt_update: true\n`,
};

/** Where the app and Debian's cloud-init disagree, and why. */
const differences: Record<string, { app: Verdict; debian: Verdict; why: string }> = {
  'apt generate_mirrorlists (Debian-only key)': {
    app: 'invalid',
    debian: 'valid',
    why: "Debian patches its 22.4.2 schema with apt.generate_mirrorlists; the vendored schema is upstream 22.4.2's, which has not: the app refuses a key only Debian's cloud-init reads",
  },
};
const differing: Record<string, string> = { 'apt generate_mirrorlists (Debian-only key)': `${h}apt:\n  generate_mirrorlists: true\n` };

type Verdict = 'valid' | 'invalid';

function appVerdict(text: string): Verdict {
  return schemaProblems(text, 'cloud-config').some((p) => p.severity === 'error') ? 'invalid' : 'valid';
}

function debianVerdict(file: string): Promise<{ verdict: Verdict | 'unclear'; said: string }> {
  return new Promise((resolve) => {
    const child = spawn('/usr/bin/cloud-init', ['schema', '--config-file', file]);
    let said = '';
    child.stdout.on('data', (b: Buffer) => (said += b.toString()));
    child.stderr.on('data', (b: Buffer) => (said += b.toString()));
    child.on('close', (code) =>
      resolve({
        verdict: code === 0 ? 'valid' : said.includes('Cloud config schema errors:') ? 'invalid' : 'unclear',
        said: said.trim(),
      }),
    );
  });
}

const skip = missing('cloud-init');

describe.skipIf(skip)("the app's schema check gives Debian's cloud-init verdict", () => {
  const corpus: Record<string, string> = {};
  for (const p of presets) corpus[`preset ${p.id}`] = p.render(3128);
  const sample = parse(readFileSync(SAMPLE, 'utf8')) as { spec: { cloudInit: { inline: string } } };
  corpus['operator sample'] = sample.spec.cloudInit.inline;
  Object.assign(corpus, broken, fine, differing);
  const debian = new Map<string, { verdict: Verdict | 'unclear'; said: string }>();

  const dir = scratchDir();
  afterAll(() => dir.remove());

  beforeAll(async () => {
    console.log(`cross-checked against ${execFileSync('/usr/bin/cloud-init', ['--version'], { encoding: 'utf8' }).trim()}`);
    const names = Object.keys(corpus);
    // Four at a time: each run is a Python start-up.
    for (let i = 0; i < names.length; i += 4)
      await Promise.all(
        names.slice(i, i + 4).map(async (name, j) => {
          const file = join(dir.path, `doc-${i + j}.yaml`);
          writeFileSync(file, corpus[name]!);
          debian.set(name, await debianVerdict(file));
        }),
      );
  }, 120_000);

  it('has every preset, the sample and at least 20 broken documents', () => {
    expect(presets.length).toBeGreaterThan(0);
    expect(Object.keys(broken).length).toBeGreaterThanOrEqual(20);
  });

  it.each(Object.keys(corpus))('%s', (name) => {
    const text = corpus[name]!;
    const theirs = debian.get(name)!;
    const ours = appVerdict(text);
    const expected = differences[name];
    if (expected) {
      expect({ app: ours, debian: theirs.verdict }, expected.why).toEqual({ app: expected.app, debian: expected.debian });
      return;
    }
    expect(ours, `cloud-init said: ${theirs.said}`).toBe(theirs.verdict);
    if (name in broken) expect(theirs.verdict, 'the broken corpus is refused by cloud-init itself').toBe('invalid');
    if (name.startsWith('a deprecated'))
      expect(theirs.said, 'cloud-init schema names the deprecated key').toContain('apt_update: DEPRECATED');
    if (name.startsWith('a deprecated'))
      expect(schemaProblems(text, 'cloud-config').map((p) => [p.line, p.severity, p.message])).toEqual([
        [2, 'warning', '“apt_update” is deprecated: Dropped after April 2027. Use “package_update”.'],
      ]);
    // A preset and the sample open the editor with no mark at all, not even a warning.
    if (name.startsWith('preset') || name === 'operator sample') expect(schemaProblems(text, 'cloud-config')).toEqual([]);
  });
});
