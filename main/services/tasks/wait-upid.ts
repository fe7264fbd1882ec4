/** Waits for a Proxmox task the services started themselves (outside the provider): poll its status until it stops. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PveApi } from '../../core/pve/api';
import { parseUpid, taskSucceeded } from '../../core/pve/upid';
import { AppError } from '../../ipc/app-error';

export async function waitUpid(api: PveApi, upid: string, signal: AbortSignal, pollMs = 250, budgetMs = 60_000): Promise<void> {
  const { node } = parseUpid(upid);
  const started = Date.now();
  for (;;) {
    const status = await api.taskStatus(node, upid, { signal });
    if (status.status === 'stopped') {
      if (taskSucceeded(status.exitstatus ?? '')) return;
      throw new AppError(
        'transient',
        `The Proxmox task ${upid} failed: ${status.exitstatus ?? 'no exit status'}.`,
        'Open the task log on the node to see why.',
      );
    }
    if (Date.now() - started > budgetMs) {
      throw new AppError(
        'transient',
        `The Proxmox task ${upid} is still running after ${Math.round(budgetMs / 1000)} s.`,
        'Check the task in the Proxmox UI.',
      );
    }
    await sleep(pollMs, undefined, { signal });
  }
}
