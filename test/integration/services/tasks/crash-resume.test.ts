import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JOURNAL_FILE } from '../../../../main/services/tasks/records/journal';
import { profileFor } from '../../../support/sim-cluster';
import { startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const child = join(import.meta.dirname, 'crash-child.ts');

/** Both creates journalled as running their start step: the moment the child is killed. */
function bothAtStart(dir: string): boolean {
  const path = join(dir, JOURNAL_FILE);
  if (!existsSync(path)) return false;
  const tasks = new Map<string, Record<string, unknown>>();
  for (const line of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const l = JSON.parse(line) as { id: string };
    tasks.set(l.id, { ...tasks.get(l.id), ...l });
  }
  const atStart = [...tasks.values()].filter((t) =>
    (t.steps as { name: string; state: string }[] | undefined)?.some((s) => s.name === 'start' && s.state === 'running'),
  );
  return atStart.length === 2;
}

describe('a crash mid-create', () => {
  it('lists the creates as interrupted after a restart; Resume finishes one VM, Clean up leaves nothing', async () => {
    env = await startEnv();
    await env.manager.close();
    const { sim } = env.t;
    // The start requests never answer: the child is certainly inside its start step when it dies.
    const startRoute = { method: 'POST', route: '/nodes/{node}/qemu/{vmid}/status/start' };
    sim.faults.inject(startRoute, { kind: 'hang' }, 2);
    // How many start requests reached the simulator (each takes one of the two hangs as it arrives). The journal says
    // "start running" just before the request leaves, so the kill waits for both arrivals too: killed between the two,
    // a hang would be left over for the resumed start.
    let startsArrived = 0;
    const forRequest = sim.faults.forRequest.bind(sim.faults);
    vi.spyOn(sim.faults, 'forRequest').mockImplementation((req) => {
      if (req.method === startRoute.method && req.route === startRoute.route) startsArrived++;
      return forRequest(req);
    });
    const token = sim.tokens.admin!;
    // Node itself, with tsx as a loader: SIGKILL must hit the process that runs the tasks, not a wrapper.
    const proc = spawn(process.execPath, ['--import', 'tsx', child], {
      env: {
        ...process.env,
        CRASH_CHILD: JSON.stringify({ profile: profileFor(sim, token.tokenId), secret: token.secret, journalDir: env.dir }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const deadline = Date.now() + 25_000;
    while (!bothAtStart(env.dir) || startsArrived < 2) {
      if (Date.now() > deadline || proc.exitCode !== null)
        throw new Error(`the child never reached the start step (${startsArrived} start requests arrived): ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    proc.kill('SIGKILL');
    await new Promise((r) => proc.once('exit', r));
    // Both hangs are used up by the dead host's requests: every later start is answered.
    expect(startsArrived).toBe(2);
    vi.restoreAllMocks();

    env.manager = env.open();
    const creates = env.manager.list().filter((t) => t.kind === 'create-proxy');
    expect(creates.map((t) => [t.target, t.state, t.actions])).toEqual(
      expect.arrayContaining([
        ['proxy-crash-1', 'interrupted', ['resume', 'clean-up']],
        ['proxy-crash-2', 'interrupted', ['resume', 'clean-up']],
      ]),
    );
    expect(env.manager.list().find((t) => t.kind === 'create-proxies')?.state).toBe('interrupted');
    const first = creates.find((t) => t.target === 'proxy-crash-1')!;
    const second = creates.find((t) => t.target === 'proxy-crash-2')!;

    env.manager.resume(first.id);
    expect((await env.manager.wait(first.id)).state).toBe('succeeded');
    const named = (name: string) => [...sim.state.vms.values()].filter((vm) => vm.config.name === name);
    expect(named('proxy-crash-1')).toHaveLength(1);
    expect(named('proxy-crash-1')[0]?.power).toBe('running');

    const { taskId } = env.manager.cleanUp(second.id);
    expect((await env.manager.wait(taskId)).state).toBe('succeeded');
    expect(named('proxy-crash-2')).toHaveLength(0);
    expect([...sim.state.nodes.keys()].map((n) => sim.state.iso(n, 'proxy-seeds', 'proxy-crash-2-seed.iso'))).toEqual([undefined]);
    expect(env.manager.get(second.id)).toMatchObject({ state: 'interrupted', closedBy: taskId, actions: [] });
  });
});
