/**
 * The programs that read the exports, as a user runs them: proxychains4
 * (proxychains-ng), pacparser (Debian's python3-pacparser) and bash. Each
 * says its version, and why its tests skip when it is not installed
 * (`.ci/run` installs them).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PROXYCHAINS = '/usr/bin/proxychains4';
/** Debian's python3, which holds python3-pacparser (not a python of the user's path). */
export const PYTHON = '/usr/bin/python3';

const debianVersion = (pkg: string) => execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8' }).trim();

export function proxychainsMissing(): string | undefined {
  return existsSync(PROXYCHAINS) ? undefined : `${PROXYCHAINS} is not installed (apt-get install proxychains4)`;
}

export function pacparserMissing(): string | undefined {
  const r = spawnSync(PYTHON, ['-c', 'import pacparser'], { encoding: 'utf8' });
  return r.status === 0 ? undefined : 'pacparser is not installed (apt-get install python3-pacparser)';
}

export const proxychainsVersion = () => `proxychains4 ${debianVersion('proxychains4')} (Debian package)`;
export const pacparserVersion = () => `pacparser ${debianVersion('python3-pacparser')} (Debian package python3-pacparser)`;
export const bashVersion = () => execFileSync('bash', ['--version'], { encoding: 'utf8' }).split('\n')[0]!;
export const curlVersion = () => execFileSync('curl', ['--version'], { encoding: 'utf8' }).split('\n')[0]!;

/** What pacparser's FindProxyForURL answers for each URL of the table (its host read from the URL, as a browser does). */
export function pacparserAnswers(pac: string, urls: readonly string[]): string[] {
  const script = [
    'import json, sys, pacparser',
    'from urllib.parse import urlsplit',
    'job = json.load(sys.stdin)',
    'pacparser.init()',
    "pacparser.parse_pac_string(job['pac'])",
    "print(json.dumps([pacparser.find_proxy(u, urlsplit(u).hostname) for u in job['urls']]))",
    'pacparser.cleanup()',
  ].join('\n');
  const r = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify({ pac, urls }), encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0) throw new Error(`pacparser failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}
