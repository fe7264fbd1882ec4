import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../../main/log/logger';
import { goodTemplate } from '../../../../main/simulator';
import { JOURNAL_FILE } from '../../../../main/services/tasks/records/journal';
import { createRecordingNotifier } from '../../../../main/ports/notifier';
import { cloudInit, SENTINEL, startEnv, type Env } from './harness';

let env: Env | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const createInput = { clusterId: 'sim', template: 't9001', machineType: 'small', count: 1, cloudInit };

function journalLines(dir: string): Record<string, unknown>[] {
  return readFileSync(`${dir}/${JOURNAL_FILE}`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The task as the journal on disk says it is now. */
function journalled(dir: string, id: string): { steps?: { name: string; state: string }[]; state?: string } {
  return journalLines(dir)
    .filter((l) => l.id === id)
    .reduce<Record<string, unknown>>((a, l) => ({ ...a, ...l }), {}) as { steps?: { name: string; state: string }[] };
}

describe('task manager over the simulator', () => {
  it('journals each step, fsync’d, before the step’s request reaches Proxmox', async () => {
    // The running steps on disk as each step's request left (two at once: the seed goes up beside the clone).
    const seen: { method: string; running: string[] }[] = [];
    let taskId = '';
    const stepRequests = new Set(['clone', 'uploadIso', 'setVmConfig', 'resize', 'start']);
    env = await startEnv({}, {}, (method) => {
      if (!taskId || !stepRequests.has(method)) return;
      // Read from disk by another handle at the moment the call goes out: what a crash now would leave.
      const steps = journalled(env!.dir, taskId).steps ?? [];
      seen.push({ method, running: steps.filter((s) => s.state === 'running').map((s) => s.name) });
    });
    const logger = createMemoryLogger();
    await env.manager.close();
    env.manager = env.open({ logger });
    const { taskIds } = await env.manager.createProxies({ ...createInput, machineType: 'medium', node: 'pv1-1' });
    taskId = taskIds[0]!;
    const done = await env.manager.wait(taskId);
    expect(done.state).toBe('succeeded');
    expect(seen).toEqual([
      { method: 'clone', running: ['clone'] },
      { method: 'uploadIso', running: ['clone', 'upload-seed'] },
      { method: 'setVmConfig', running: ['configure'] },
      { method: 'resize', running: ['resize'] },
      { method: 'start', running: ['start'] },
    ]);
    expect([...done.upids.map((u) => u.step)].sort()).toEqual(['clone', 'resize', 'start', 'upload-seed']);
    // The cloud-init text and the password in it reach neither the journal, nor a log line, nor a view.
    const file = readFileSync(`${env.dir}/${JOURNAL_FILE}`, 'utf8');
    for (const text of [file, logger.lines.join('\n'), JSON.stringify(env.events), JSON.stringify(env.manager.list())]) {
      expect(text).not.toContain(SENTINEL);
      expect(text).not.toContain('chpasswd');
    }
  });

  it('runs a bulk create of 5 as 5 tasks under one parent, never more than the limits at once', async () => {
    const twoNodes = {
      nodes: ['pv1-1', 'pv1-2'].map((node) => ({
        node,
        storages: [
          { storage: 'proxy-seeds', type: 'dir' as const, content: 'iso', totalBytes: 1e10 },
          { storage: 'local-lvm', type: 'lvmthin' as const, content: 'images', totalBytes: 1e11 },
        ],
        bridges: [{ iface: 'vmbr0', vlanAware: true }],
        vms: node === 'pv1-1' ? [goodTemplate()] : [],
      })),
    };
    env = await startEnv({ dataset: twoNodes }, { limits: { global: 3, perNode: 2 } });
    const { parentId, taskIds } = await env.manager.createProxies({ ...createInput, count: 5, name: 'proxy-bulk' });
    expect(taskIds).toHaveLength(5);
    const views = taskIds.map((id) => env!.manager.get(id));
    expect(new Set(views.map((v) => v.parentId))).toEqual(new Set([parentId]));
    expect(views.map((v) => v.target)).toEqual(['proxy-bulk-1', 'proxy-bulk-2', 'proxy-bulk-3', 'proxy-bulk-4', 'proxy-bulk-5']);
    // Automatic placement spreads them over both nodes.
    expect(new Set(views.map((v) => v.node))).toEqual(new Set(['pv1-1', 'pv1-2']));

    let maxGlobal = 0;
    const maxPerNode: Record<string, number> = {};
    const running = new Map<string, string>();
    const seenFrom = env.events.length;
    const parent = await env.manager.wait(parentId!);
    for (const e of env.events.slice(seenFrom)) {
      if (e.name !== 'tasks.update' || e.payload.kind !== 'create-proxy') continue;
      if (e.payload.state === 'running') running.set(e.payload.id, e.payload.node ?? '');
      else running.delete(e.payload.id);
      maxGlobal = Math.max(maxGlobal, running.size);
      for (const node of new Set(running.values()))
        maxPerNode[node] = Math.max(maxPerNode[node] ?? 0, [...running.values()].filter((n) => n === node).length);
    }
    expect(parent).toMatchObject({ state: 'succeeded', progress: 1, childIds: taskIds });
    expect(maxGlobal).toBe(3);
    expect(Math.max(...Object.values(maxPerNode))).toBe(2);
    const proxies = [...env.t.sim.state.vms.values()].filter((vm) => String(vm.config.name).startsWith('proxy-bulk-'));
    expect(proxies).toHaveLength(5);
  });

  it('cancels while a clone runs: stops the Proxmox task with DELETE and says what it stopped', async () => {
    const notifier = createRecordingNotifier();
    env = await startEnv({}, { notifier, notifyAfterMs: 0 });
    env.t.sim.faults.hangTask({ type: 'qmclone' });
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-cancel' });
    const id = taskIds[0]!;
    await until(() => env!.manager.get(id).steps.some((s) => s.name === 'clone' && s.upid));
    const upid = env.manager.get(id).steps.find((s) => s.name === 'clone')!.upid!;
    const { message } = await env.manager.cancel(id);
    const stops = env.t.sim.requests.records.filter((r) => r.method === 'DELETE' && r.route === '/nodes/{node}/tasks/{upid}');
    expect(stops).toHaveLength(1);
    expect(env.t.sim.tasks.get(upid)).toMatchObject({ status: 'stopped', exitstatus: 'received interrupt' });
    expect(message).toMatch(/Stopped the Proxmox task qmclone on node pv1-1: it ended with “received interrupt”/);
    const view = env.manager.get(id);
    // The seed went up beside the clone (seed-beside-clone.ts): Clean up is offered for it too.
    expect(view).toMatchObject({ state: 'cancelled', actions: ['retry', 'clean-up'], leftBehind: `possibly VM ${view.vmid} and its seed` });
    const states = Object.fromEntries(view.steps.map((s) => [s.name, s.state]));
    expect(states).toMatchObject({ lookup: 'done', clone: 'cancelled' });
    expect(['done', 'cancelled']).toContain(states['upload-seed']); // the cancel may come before or after its end
    const rest = view.steps.filter((s) => !['lookup', 'clone', 'upload-seed'].includes(s.name)).map((s) => s.state);
    expect(new Set(rest)).toEqual(new Set(['not-run'])); // never "pending" for ever
    expect(notifier.notes.at(-1)?.title).toBe('proxy-cancel: cancelled');
    expect(notifier.fractions.at(-1)).toBeNull();
  });

  it('reads no Proxmox task log of a task nobody watches (issue 11: each read takes one of pveproxy’s workers)', async () => {
    env = await startEnv();
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-unwatched' });
    await env.manager.wait(taskIds[0]!);
    expect(env.t.sim.requests.count({ route: '/nodes/{node}/tasks/{upid}/log' })).toBe(0);
    expect(env.events.some((e) => e.name === 'tasks.log')).toBe(false);
  });

  it('follows a watched task’s Proxmox task log while it runs, and pages it from the node on request', async () => {
    env = await startEnv({ taskDurations: { qmclone: 200_000 } });
    const { taskIds } = await env.manager.createProxies({ ...createInput, name: 'proxy-logs' });
    const id = taskIds[0]!;
    env.manager.watchLog(id, true); // the Tasks view shows it (tasks.watchLog)
    await until(() => env!.events.some((e) => e.name === 'tasks.log' && e.payload.id === id));
    const first = env.events.find((e) => e.name === 'tasks.log' && e.payload.id === id)!;
    expect((first.payload as { lines: unknown[] }).lines[0]).toMatchObject({
      n: 1,
      t: expect.stringMatching(/^create full clone of drive/),
    });
    // Followed while running: the clone is still going when its first lines arrive.
    const upid = (first.payload as { upid: string }).upid;
    const page = await env.manager.readLog(id, upid, 0, 1);
    expect(page).toMatchObject({ total: expect.any(Number), running: true });
    expect(page.lines).toHaveLength(1);
    await env.manager.wait(id);
    const linesOf = () => env!.events.flatMap((e) => (e.name === 'tasks.log' && e.payload.upid === upid ? e.payload.lines : []));
    // The last read follows the clone step's end; the rest of the create (its seed went up beside the clone) may end
    // the task before that read is answered.
    await until(() => linesOf().at(-1)?.t === 'TASK OK');
    const lines = linesOf();
    expect(lines.at(-1)?.t).toBe('TASK OK');
    expect(lines.map((l) => l.n)).toEqual(lines.map((_, i) => i + 1)); // every line once, in order
    await expect(env.manager.readLog(id, 'UPID:pv1-1:00000000:00000000:00000000:qmstart:1:x@pam:', 0, 10)).rejects.toMatchObject({
      kind: 'not-found',
    });
  });

  it('keeps a bounded history that survives a restart', async () => {
    env = await startEnv({}, { historyLimit: 2 });
    for (let n = 0; n < 3; n++) await env.manager.wait(env.manager.runDoctor('sim').taskId);
    expect(env.manager.list()).toHaveLength(2);
    const before = env.manager.list();
    expect(before[0]).toMatchObject({ kind: 'doctor', state: 'failed', error: { kind: 'permanent' } });
    await env.manager.close();
    env.manager = env.open({ historyLimit: 2 });
    expect(env.manager.list()).toEqual(before);
    expect(journalLines(env.dir)).toHaveLength(2); // compacted on start
  });
});

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
