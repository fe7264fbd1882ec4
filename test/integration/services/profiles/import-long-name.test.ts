/**
 * Importing a profile whose name is already as long as a name may be: the
 * " (imported)" suffix must survive (the base is cut, not the suffix), so
 * the import ends with a distinct name instead of spinning main forever.
 * The import runs in a child process with a deadline, so a regression fails
 * the test instead of hanging the runner.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers';

const child = fileURLToPath(new URL('./import-long-name-child.ts', import.meta.url));

function importInChild(name: string, deadlineMs: number): Promise<{ names?: string[]; timedOut: boolean; stderr: string }> {
  return tempDir().then(
    (dir) =>
      new Promise((resolve) => {
        const proc = spawn(process.execPath, ['--import', 'tsx', child, dir, name], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
        proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
        const timer = setTimeout(() => proc.kill('SIGKILL'), deadlineMs);
        proc.on('exit', (_code, signal) => {
          clearTimeout(timer);
          if (signal === 'SIGKILL') resolve({ timedOut: true, stderr: err });
          else resolve({ names: out ? (JSON.parse(out) as string[]) : undefined, timedOut: false, stderr: err });
        });
      }),
  );
}

describe('importing a profile whose name is 100 characters', () => {
  it('terminates with distinct names of at most 100 characters that keep the suffix', async () => {
    const name = 'N'.repeat(100);
    const result = await importInChild(name, 20_000);
    expect(result.timedOut, 'the import spun until killed').toBe(false);
    expect(result.names, result.stderr).toBeDefined();
    const names = result.names!;
    expect(names).toHaveLength(3);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(3);
    for (const n of names) expect(n.length).toBeLessThanOrEqual(100);
    expect(names[0]).toBe(name);
    expect(names[1]).toMatch(/^N+ \(imported\)$/);
    expect(names[2]).toMatch(/^N+ \(imported 2\)$/);
  });
});
