/**
 * Electronegativity (Doyensec's Electron security scanner) over our own
 * source: main/, renderer/src and the renderer's index.html. Every finding
 * must be explained in the allowlist table of docs/security.md, and every
 * allowlist row must still match a finding, so the table never goes stale.
 *
 * The scanner fetches translations and Electron's release list from the
 * internet; tests talk only to loopback, so a preload makes every non-local
 * DNS lookup fail at once and the release check is excluded.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const cli = join(root, 'node_modules/@doyensec/electronegativity/dist/index.js');
const electronVersion = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
  .devDependencies.electron;

const offlinePreload = `const dns = require('node:dns');
const lookup = dns.lookup;
dns.lookup = function (host, ...rest) {
  if (host === 'localhost' || host === '127.0.0.1') return lookup.call(this, host, ...rest);
  const callback = rest[rest.length - 1];
  process.nextTick(() => callback(Object.assign(new Error('offline: ' + host), { code: 'ENOTFOUND' })));
};
`;

export interface Finding {
  check: string;
  file: string;
  line: string;
  description: string;
}

interface Sarif {
  runs: {
    results: {
      ruleId: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[];
    }[];
  }[];
}

/**
 * SARIF, not CSV: the scanner writes its CSV header and rows with two racing
 * asynchronous writes, so under load the header can truncate the rows. Its
 * SARIF report is written in one piece.
 */
function parseSarif(text: string): Finding[] {
  const report = JSON.parse(text) as Sarif;
  return (report.runs[0]?.results ?? []).map((r) => {
    const where = r.locations[0]?.physicalLocation;
    return {
      check: r.ruleId,
      file: where?.artifactLocation.uri ?? '',
      line: where ? `${where.region.startLine}:${where.region.startColumn - 1}` : '',
      description: r.message.text,
    };
  });
}

async function scan(): Promise<Finding[]> {
  const work = mkdtempSync(join(tmpdir(), 'egress-eneg-'));
  try {
    const tree = join(work, 'src');
    cpSync(join(root, 'main'), join(tree, 'main'), { recursive: true });
    cpSync(join(root, 'renderer/src'), join(tree, 'renderer/src'), { recursive: true });
    mkdirSync(join(tree, 'renderer'), { recursive: true });
    cpSync(join(root, 'renderer/index.html'), join(tree, 'renderer/index.html'));
    writeFileSync(join(work, 'offline.cjs'), offlinePreload);
    const report = join(work, 'findings.sarif');
    const args = [cli, '-i', tree, '-o', report, '-r', '-e', electronVersion!, '-x', 'AvailableSecurityFixesGlobalCheck'];
    await promisify(execFile)(process.execPath, args, {
      env: { ...process.env, NODE_OPTIONS: `--require ${join(work, 'offline.cjs')}`, LANG: 'en-US' },
      timeout: 240_000,
    });
    return parseSarif(readFileSync(report, 'utf8'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The rows of the allowlist table under "## Electron security scanner" in docs/security.md: check, file, why. */
function allowlist(): { check: string; file: string; why: string }[] {
  const doc = readFileSync(join(root, 'docs/security.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Electron security scanner')) ?? '';
  return section
    .split('\n')
    .filter((l) => /^\|\s*`[A-Z_]+`/.test(l))
    .map((l) => l.split('|').map((c) => c.trim().replace(/^`|`$/g, '')))
    .map(([, check, file, why]) => ({ check: check ?? '', file: file ?? '', why: why ?? '' }));
}

const sourcesPresent = existsSync(cli) && electronVersion !== undefined;
if (!sourcesPresent) console.log('skipped: @doyensec/electronegativity or the electron devDependency is not installed');

describe('electronegativity over our source', () => {
  it.skipIf(!sourcesPresent)(
    'finds nothing that docs/security.md does not explain, and the allowlist holds no stale row',
    async () => {
      const findings = await scan();
      const allowed = allowlist();
      expect(allowed.length).toBeGreaterThan(0);
      for (const row of allowed) expect(row.why.length, `${row.check} ${row.file} needs a reason`).toBeGreaterThan(20);
      const unexplained = findings.filter((f) => !allowed.some((a) => a.check === f.check && a.file === f.file));
      expect(unexplained, 'findings missing from the allowlist in docs/security.md').toEqual([]);
      const stale = allowed.filter((a) => !findings.some((f) => f.check === a.check && f.file === a.file));
      expect(stale, 'allowlist rows no finding matches any more').toEqual([]);
    },
    300_000,
  );
});
