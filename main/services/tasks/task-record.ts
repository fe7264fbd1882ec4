/**
 * What the task manager keeps about a task, in memory and in the journal:
 * the view the renderer sees plus the request needed to run it again. The
 * cloud-init text is kept only sealed (sealer.ts), never as clear text.
 */
import type { SeedRef, TaskView } from '../../../shared/channels/tasks';

export interface CreateProxyInput {
  kind: 'create-proxy';
  uid: string;
  name: string;
  node: string;
  template: string;
  machineType: string;
  /** Dropped once the proxy runs or its leftovers are cleaned up: nothing will need it again. */
  sealedCloudInit?: string;
}
export interface DeleteProxyInput {
  kind: 'delete-proxy';
  providerId: string;
}
export interface CleanUpInput {
  kind: 'clean-up';
  ofTaskId: string;
  uid: string;
  name: string;
  vmid?: number;
}
export interface CleanSeedsInput {
  kind: 'clean-seeds';
  seeds: SeedRef[];
  dryRun: boolean;
  graceMinutes: number;
}
export interface NoInput {
  kind: 'create-proxies' | 'doctor';
}
export type TaskInput = CreateProxyInput | DeleteProxyInput | CleanUpInput | CleanSeedsInput | NoInput;

export type TaskRecord = Omit<TaskView, 'actions'> & { input: TaskInput };

export const finishedStates: ReadonlySet<TaskView['state']> = new Set(['succeeded', 'failed', 'cancelled', 'interrupted']);

/** Still working, or cut off and not yet resolved by a resume or a clean-up: its proxy name is in use. */
export function holdsItsName(task: TaskRecord): boolean {
  if (task.state === 'queued' || task.state === 'running') return true;
  return task.state !== 'succeeded' && task.closedBy === undefined && task.kind === 'create-proxy';
}

/** The proxy name a task works on, if any. */
export function nameOf(task: TaskRecord): string | undefined {
  const input = task.input;
  if (input.kind === 'create-proxy' || input.kind === 'clean-up') return input.name;
  if (input.kind === 'delete-proxy') return input.providerId.split('/')[2];
  return undefined;
}

function actionsOf(task: TaskRecord): TaskView['actions'] {
  if (task.state === 'queued' || task.state === 'running') return ['cancel'];
  if (task.closedBy !== undefined || task.kind === 'create-proxies' || task.state === 'succeeded') return [];
  const rerun = task.state === 'interrupted' ? 'resume' : 'retry';
  return task.kind === 'create-proxy' ? [rerun, 'clean-up'] : [rerun];
}

/** The renderer's view: everything but the request (which holds the sealed cloud-init). */
export function toView(task: TaskRecord): TaskView {
  const { input: _input, ...rest } = task;
  return { ...rest, actions: actionsOf(task) };
}
