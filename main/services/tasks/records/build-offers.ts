/**
 * What a template build that did not finish left in Proxmox, in words, for
 * the task's `leftBehind` and its Clean up offer. Pure: from the steps, the
 * journalled resume points, and (after a failure) what the build's own
 * clean-up could not remove.
 */
import type { StepView } from '../../../../shared/channels/tasks';
import type { TaskRecord } from './task-record';

const made = (s: StepView | undefined) => s?.state === 'done' || s?.state === 'skipped';
const begun = (s: StepView | undefined) => s?.state === 'failed' || s?.state === 'cancelled' || s?.state === 'running';

export function buildLeftBehindOf(task: TaskRecord): string | undefined {
  const input = task.input;
  if (input.kind !== 'build-template' || task.closedBy !== undefined) return undefined;
  if (task.state !== 'failed' && task.state !== 'cancelled' && task.state !== 'interrupted') return undefined;
  // A failure ran the build's own clean-up: what it could not remove is recorded.
  if (task.state === 'failed') return input.leftovers && input.leftovers.length > 0 ? input.leftovers.join('; ') : undefined;
  const step = (name: string) => task.steps.find((s) => s.name === name);
  const resume = input.resume ?? {};
  const parts: string[] = [];
  const create = step('create-vm');
  const vmLater = ['convert', 'verify', 'cleanup-image'].some((n) => made(step(n)) || begun(step(n)));
  if (resume.vmid !== undefined && !made(step('convert')) && (made(create) || begun(create) || vmLater))
    parts.push(`${made(create) || vmLater ? '' : 'possibly '}the half-built VM ${resume.vmid}`);
  if (resume.downloadedByUs && resume.volid && !made(step('cleanup-image'))) parts.push(`the image ${resume.volid}`);
  return parts.length > 0 ? parts.join(' and ') : undefined;
}
