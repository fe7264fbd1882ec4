/**
 * node:sqlite's ExperimentalWarning does not reach the user's console, and
 * only that one: a child loads the module the app's way and emits two other
 * warnings, which must still be printed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const child = join(import.meta.dirname, 'load-sqlite-child.ts');
const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');

describe('loading node:sqlite', () => {
  it('drops exactly its ExperimentalWarning and prints every other warning', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', child], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = await once(proc, 'exit');
    expect(code).toBe(0);
    expect(stderr).not.toContain('SQLite is an experimental feature');
    expect(stderr).toContain('ExperimentalWarning: Some other feature is an experimental feature');
    expect(stderr).toContain('DeprecationWarning: a deprecation the user must still see');
  });
});
