/** How tasks read in the list and the details: kind names, the current step, the bar's colour. */
import type { TaskKind, TaskState, TaskView } from '../../../../shared/channels/tasks';

export const kindLabel: Record<TaskKind, string> = {
  'create-proxy': 'Create',
  'create-proxies': 'Create',
  'delete-proxy': 'Delete',
  'clean-up': 'Clean up',
  'clean-seeds': 'Delete seeds',
  doctor: 'Check cluster',
};

export function currentStep(t: TaskView): string {
  const running = t.steps.find((s) => s.state === 'running');
  if (running) return running.name;
  if (t.state === 'queued') return 'waiting to start';
  if (t.state === 'succeeded') return 'done';
  const done = t.steps.filter((s) => s.state === 'done' || s.state === 'skipped').length;
  return t.steps.length ? `${done} of ${t.steps.length} steps done` : t.state;
}

export function progressTone(state: TaskState): 'ok' | 'warn' | 'bad' | 'info' {
  if (state === 'succeeded') return 'ok';
  if (state === 'failed') return 'bad';
  if (state === 'interrupted' || state === 'cancelled') return 'warn';
  return 'info';
}
