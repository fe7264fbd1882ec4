/**
 * A crash during writes loses at most the last batch: a child process records
 * checks continuously into history.sqlite (WAL, synchronous=NORMAL, one
 * transaction per batch of 50) and is SIGKILLed at varied moments. After each
 * kill the file opens cleanly (quick_check passes, nothing moved aside), holds
 * whole batches only, with no gap, and at least every batch the child said
 * it had committed.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';

const child = join(import.meta.dirname, 'write-loop.ts');
const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');

/** Runs the writer until it has reported `minCommitted` rows plus a delay, kills it, returns the last count it reported. */
async function killWhileWriting(file: string, minCommitted: number, delayMs: number): Promise<number> {
  // Node itself with tsx as a loader: SIGKILL must hit the writing process, not a wrapper.
  const proc = spawn(process.execPath, ['--import', 'tsx', child, file], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  let reported = 0;
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      for (const match of d.toString().matchAll(/committed (\d+)/g)) reported = Number(match[1]);
      if (reported >= minCommitted) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`the writer exited early (${code})`)));
  });
  await new Promise((r) => setTimeout(r, delayMs));
  proc.kill('SIGKILL');
  await once(proc, 'exit');
  return reported;
}

describe('history database crash safety', () => {
  it('a writer killed mid-stream loses at most the last batch and the file opens cleanly', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'egress-history-')), 'history.sqlite');
    let before = 0;
    for (const delayMs of [0, 35, 90, 170]) {
      const reported = await killWhileWriting(file, before + 500, delayMs);
      const logger = createMemoryLogger();
      const store = openHistoryDatabase({ file, logger, now: () => 10_000 });
      const status = store.status();
      expect(status.movedAside, `killed ${delayMs} ms in`).toBeUndefined();
      expect(status.degraded).toBeUndefined();
      const rows = store.checks('crash', 1, 0);
      const count = rows.length;
      // Every batch the child saw committed is there; only whole batches; no gap, in order.
      expect(count).toBeGreaterThanOrEqual(reported);
      expect(count % 50).toBe(0);
      expect(rows.every((row, i) => row.at === i)).toBe(true);
      expect(rows.at(-1)?.egressAddress).toBe(`203.0.113.${(count - 1) % 5}`);
      store.close();
      before = count;
    }
  }, 120_000);
});
