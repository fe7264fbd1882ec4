/**
 * The crash table's driver: hold one step's request in the simulator, start
 * the host in a child process, SIGKILL it once the journal shows that step
 * running, let the held request land anyway (sent, took effect, nobody
 * listening), then restart the task manager on the same journal.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOURNAL_FILE } from '../../../main/services/tasks/records/journal';
import type { RequestMatch } from '../../../main/simulator';
import { profileFor } from '../../support/sim-cluster';
import type { Env } from '../services/tasks/harness';
import type { CrashOrder } from './crash-child';

/** The request each step sends; the kill lands while it is held. */
export const stepRequest: Record<string, RequestMatch> = {
  clone: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/clone' },
  'upload-seed': { method: 'POST', route: '/nodes/{node}/storage/{storage}/upload' },
  configure: { method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' },
  resize: { route: '/nodes/{node}/qemu/{vmid}/resize' },
  start: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/start' },
  'wait-running': { method: 'GET', route: '/nodes/{node}/qemu/{vmid}/status/current' },
  stop: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/stop' },
  'delete-seed': { method: 'DELETE', route: '/nodes/{node}/storage/{storage}/content/{volume}' },
  destroy: { method: 'DELETE', route: '/nodes/{node}/qemu/{vmid}' },
  // Issue 16: the power actions, migrate's and reconfigure's seed steps (a config write, an upload, a delete each).
  shutdown: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/shutdown' },
  reboot: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/reboot' },
  migrate: { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/migrate' },
  'copy-seed': { method: 'POST', route: '/nodes/{node}/storage/{storage}/upload' },
  'detach-seed': { method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' },
  'attach-seed': { method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' },
  'delete-source-seed': { method: 'DELETE', route: '/nodes/{node}/storage/{storage}/content/{volume}' },
  'stage-seed': { method: 'POST', route: '/nodes/{node}/storage/{storage}/upload' },
  'replace-seed': { method: 'POST', route: '/nodes/{node}/storage/{storage}/upload' },
  // Issue 24: a rotate's check sends nothing to Proxmox; the child's check never answers, this holds nothing it sends.
  'check with the new credentials': { method: 'GET', route: '/version' },
  // Issue 26: a release's or an undo's one write.
  'rewrite the mark': { method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' },
};

const HOLD_MS = 400;
const child = join(import.meta.dirname, 'crash-child.ts');

/** Whether a task (of `kind`, when given: an earlier task in the journal may have run a step of that name) runs `step`. */
function stepRunning(dir: string, step: string, kind?: string): boolean {
  const path = join(dir, JOURNAL_FILE);
  if (!existsSync(path)) return false;
  // Only complete lines: the child may be writing the last one while we read (the journal's reader does the same).
  const lines = readFileSync(path, 'utf8').split('\n').slice(0, -1).filter(Boolean);
  // A line is a task's whole record or a change to it by id: the kind is on the first.
  const ofKind = new Set<string>();
  return lines.some((line) => {
    const record = JSON.parse(line) as { id?: string; kind?: string; steps?: { name: string; state: string }[] };
    if (record.kind === kind && record.id) ofKind.add(record.id);
    return (kind === undefined || ofKind.has(record.id ?? '')) && record.steps?.some((s) => s.name === step && s.state === 'running');
  });
}

export async function killAtStep(env: Env, step: string, action: CrashOrder['action'], taskKind?: string): Promise<void> {
  const { sim } = env.t;
  const undo = sim.faults.inject(stepRequest[step]!, { kind: 'delay', ms: HOLD_MS });
  const token = sim.tokens.admin!;
  const order: CrashOrder = { profile: profileFor(sim, token.tokenId), secret: token.secret, journalDir: env.dir, action };
  // Node itself with tsx as a loader: a tsx wrapper process would pass on the SIGKILL to nobody.
  const proc = spawn(process.execPath, ['--import', 'tsx', child], {
    env: { ...process.env, CRASH_ORDER: JSON.stringify(order) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 25_000;
  while (!stepRunning(env.dir, step, taskKind)) {
    if (Date.now() > deadline || proc.exitCode !== null) {
      proc.kill('SIGKILL');
      throw new Error(`the host never reached the ${step} step: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  proc.kill('SIGKILL');
  await new Promise((r) => proc.once('exit', r));
  undo();
  await new Promise((r) => setTimeout(r, HOLD_MS + 100)); // the held request lands with nobody waiting
}
