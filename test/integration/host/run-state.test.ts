/**
 * Browser mode keeps its port and run key in the data folder (0600), so a
 * page left open finds a restarted host by itself: the file round-trips, a
 * broken one is ignored, and the real CLI, SIGKILLed and started again on
 * the same data folder, listens on the same port with the same key.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunState, RUN_STATE_FILE, writeRunState } from '../../../main/host/run-state';
import { newRunKey } from '../../../main/host/socket-auth';
import { repoRoot, rendererMissingReason } from '../../support/web-host';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'egress-run-state-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the run state file', () => {
  it('keeps the port and key, private to the user', () => {
    const dir = tempDir();
    expect(readRunState(dir)).toBeUndefined();
    const key = newRunKey();
    writeRunState(dir, { port: 43123, key });
    expect(readRunState(dir)).toEqual({ port: 43123, key });
    if (process.platform !== 'win32') expect(statSync(join(dir, RUN_STATE_FILE)).mode & 0o777).toBe(0o600);
  });

  it('ignores a file it did not write', () => {
    const dir = tempDir();
    for (const text of ['not json', '{"port":1}', '{"port":80,"key":"short"}', 'null']) {
      writeFileSync(join(dir, RUN_STATE_FILE), text);
      expect(readRunState(dir)).toBeUndefined();
    }
    writeFileSync(join(dir, RUN_STATE_FILE), JSON.stringify({ port: 'x', key: newRunKey() }));
    expect(readRunState(dir)?.port).toBe(0);
  });
});

const cli = join(repoRoot, 'main', 'host', 'cli.ts');

async function runCli(dataDir: string): Promise<{ port: number; key: string; kill: () => Promise<void> }> {
  const env: NodeJS.ProcessEnv = { ...process.env, EGRESS_DESK_DATA_DIR: dataDir, EGRESS_DESK_LOG_LEVEL: 'info' };
  delete env.EGRESS_DESK_PORT;
  const proc = spawn(process.execPath, ['--import', 'tsx', cli], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise((r) => proc.once('exit', r));
  const deadline = Date.now() + 25_000;
  let m: RegExpExecArray | null;
  while (!(m = /Open: http:\/\/127\.0\.0\.1:(\d+)\/#key=([\w-]+)/.exec(output))) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`the host never started:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port: Number(m[1]),
    key: m[2]!,
    kill: async () => {
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

describe.skipIf(rendererMissingReason())('the CLI across a restart', () => {
  it('comes back on the same port with the same key after a SIGKILL', async () => {
    const dataDir = tempDir();
    const first = await runCli(dataDir);
    expect(readRunState(dataDir)).toEqual({ port: first.port, key: first.key });
    await first.kill();
    const second = await runCli(dataDir);
    try {
      expect(second.port).toBe(first.port);
      expect(second.key).toBe(first.key);
    } finally {
      await second.kill();
    }
  }, 60_000);
});
