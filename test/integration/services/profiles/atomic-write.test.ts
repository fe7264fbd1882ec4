/**
 * Writes are atomic: a process killed in the middle of writing the profile
 * file leaves a whole document (the old one or the new one), never a torn
 * one. A child process rewrites a ~600 kB file in a loop (a write takes
 * a few hundred ms) and is killed with SIGKILL at varied moments while it
 * rewrites; after each kill the file opens with no problem.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openConfDocumentStore } from '../../../../main/services/profiles/document-store';
import { openProfileDocument } from '../../../../main/services/profiles/open-document';
import { tempDir } from './helpers';

const child = join(import.meta.dirname, 'write-loop.ts');
const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');

async function killMidWrite(dir: string, run: string, delayMs: number): Promise<void> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, dir, run], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    // Wait for a second write: from then on every kill lands while an existing file is being replaced.
    proc.stdout.on('data', (d: Buffer) => d.toString().includes('wrote 2') && resolve());
    proc.once('exit', (code) => reject(new Error(`the writer exited early (${code})`)));
  });
  await new Promise((r) => setTimeout(r, delayMs));
  proc.kill('SIGKILL');
  await once(proc, 'exit');
}

describe('atomic writes', () => {
  it('a writer killed mid-write leaves a whole, valid profile file every time', async () => {
    const dir = await tempDir();
    for (const [run, delayMs] of [0, 60, 130, 210].entries()) {
      await killMidWrite(dir, `run${run}`, delayMs);
      const opened = openProfileDocument(openConfDocumentStore, dir, createMemoryLogger());
      expect(opened.problem, `killed after ${delayMs} ms`).toBeUndefined();
      expect(opened.doc.profiles).toHaveLength(250);
      const stamp = opened.doc.profiles[0]!.createdAt;
      // A whole write of this run, at least the second: never half of one write and half of another.
      expect(stamp).toMatch(new RegExp(`^run${run}-([2-9]|\\d{2,})$`));
      expect(new Set(opened.doc.profiles.map((p) => p.createdAt))).toEqual(new Set([stamp]));
      expect(readFileSync(join(dir, 'profiles.json'), 'utf8').length).toBeGreaterThan(500_000);
    }
  }, 240_000);
});
