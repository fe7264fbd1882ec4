/**
 * Issue 25 item 5: a new task's empty log answers pve-common's placeholder (src/PVE/Tools.pm dump_logfile: `{n: 1,
 * t: "no content"}`, count 1, the same on every release); the client reads it as no lines, so the real first line,
 * numbered 1 too, is read as new. On each version profile of the simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PveVersion } from '../../../main/simulator';
import { simProvider, type SimProvider } from './sim-provider';

describe.each(['7.4', '8.4', '9.2'] as const)('Proxmox VE %s', (version: PveVersion) => {
  let env: SimProvider;
  beforeAll(async () => {
    env = await simProvider({ timeScale: 0.001, agentDelayMs: 0, version });
  });
  afterAll(async () => env?.close());

  it('an empty log reads as no lines; its first line then reads as line 1', async () => {
    let end!: () => void;
    const done = new Promise<void>((r) => (end = r));
    const task = env.sim.tasks.start('pv1-1', 'qmstart', 100, { tokenId: env.sim.tokens.operator!.tokenId }, () => done);
    expect(await env.client.taskLog('pv1-1', task.upid, { start: 0, limit: 50 })).toEqual({ lines: [], total: 0 });
    task.log.push('starting VM 100');
    expect(await env.client.taskLog('pv1-1', task.upid, { start: 0, limit: 50 })).toEqual({ lines: [{ n: 1, t: 'starting VM 100' }], total: 1 });
    end();
  });
});
