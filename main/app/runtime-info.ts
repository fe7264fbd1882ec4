/** The app's version and runtime, read the same way in every mode. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppInfo } from '../../shared/contract';

export function readPackageVersion(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

export function nodeRuntime(): AppInfo['runtime'] {
  const v = process.versions as NodeJS.ProcessVersions & { electron?: string; chrome?: string };
  return { node: v.node, electron: v.electron ?? null, chrome: v.chrome ?? null, platform: process.platform };
}
