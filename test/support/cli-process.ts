/** Browser mode as a real process: `main/host/cli.ts` (what `npm run start:web` runs) under Node with tsx as a loader. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './web-host';

const cli = join(repoRoot, 'main', 'host', 'cli.ts');

export interface CliProcess {
  proc: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  exited: Promise<number | null>;
  alive: () => boolean;
}

export function startCli(env: Record<string, string>): CliProcess {
  // Node itself with tsx as a loader: the process under test is the host, not a wrapper.
  const proc = spawn(process.execPath, ['--import', 'tsx', cli], {
    cwd: repoRoot,
    env: { ...process.env, EGRESS_DESK_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, output: () => output, exited, alive: () => proc.exitCode === null && proc.signalCode === null };
}

/** The port and key of the URL it prints once it runs; throws with its output if it never does. */
export async function printedUrl(child: CliProcess, timeoutMs = 25_000): Promise<{ port: number; key: string }> {
  const deadline = Date.now() + timeoutMs;
  let m: RegExpExecArray | null = null;
  while (!(m = /Open: http:\/\/127\.0\.0\.1:(\d+)\/#key=([\w-]+)/.exec(child.output()))) {
    if (Date.now() > deadline || !child.alive()) throw new Error(`the host never started:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port: Number(m[1]), key: m[2]! };
}
