/** How tasks read in the list and the details: kind names, the current step, the bar's colour, the two parts of a create. */
import type { FixAt, StepView, TaskKind, TaskState, TaskView } from '../../../../shared/channels/tasks';
import type { ViewId } from '../../stores/ui';

export const kindLabel: Record<TaskKind, string> = {
  'create-proxy': 'Create',
  'create-proxies': 'Create',
  'delete-proxy': 'Delete',
  'clean-up': 'Clean up',
  'clean-seeds': 'Delete seeds',
  doctor: 'Check cluster',
  'build-template': 'Build template',
  'clean-up-build': 'Clean up build',
  'start-proxy': 'Start',
  'shutdown-proxy': 'Shut down',
  'stop-proxy': 'Stop',
  'reboot-proxy': 'Reboot',
  'power-proxies': 'Power',
  'delete-proxies': 'Delete',
  'migrate-proxy': 'Migrate',
  'reconfigure-proxy': 'Reconfigure',
  'rotate-credentials': 'Rotate credentials',
  'recreate-proxy': 'Recreate',
  'migrate-proxies': 'Migrate',
  'reconfigure-proxies': 'Reconfigure',
  'recreate-proxies': 'Recreate',
  'release-proxy': 'Release to Kubernetes',
  'reclaim-proxy': 'Undo release',
};

export const stepLabel: Record<StepView['state'], string> = {
  pending: 'pending',
  running: 'running',
  done: 'done',
  skipped: 'skipped',
  failed: 'failed',
  cancelled: 'cancelled',
  'not-run': 'not run',
};

export function stepBadgeState(state: StepView['state']): string {
  if (state === 'done') return 'succeeded';
  if (state === 'not-run') return 'skipped';
  return state;
}

export function currentStep(t: TaskView): string {
  // A create's seed goes up beside its clone: both are named while both run.
  const running = t.steps.filter((s) => s.state === 'running');
  if (running.length > 0) return running.map((s) => s.name).join(' + ');
  if (t.state === 'queued') return 'waiting to start';
  if (t.address?.state === 'ready') return `ready at ${t.address.value ?? ''}`;
  if (t.address?.state === 'gave-up') return 'runs, no address';
  if (t.state === 'succeeded') return 'done';
  const done = t.steps.filter((s) => s.state === 'done' || s.state === 'skipped').length;
  return t.steps.length ? `${done} of ${t.steps.length} steps done` : t.state;
}

export function progressTone(state: TaskState, address?: TaskView['address']): 'ok' | 'warn' | 'bad' | 'info' {
  if (state === 'succeeded' && address?.state === 'waiting') return 'info';
  if (state === 'succeeded' && address?.state === 'gave-up') return 'warn';
  if (state === 'succeeded') return 'ok';
  if (state === 'failed') return 'bad';
  if (state === 'interrupted' || state === 'cancelled') return 'warn';
  return 'info';
}

const addressWords: Record<NonNullable<TaskView['address']>['state'], string> = {
  waiting: 'waiting',
  ready: 'ready',
  'gave-up': 'gave up',
};

/** A create's two parts in one line: "Proxmox: done · address: waiting". */
export function partsLine(t: TaskView): string | undefined {
  if (t.kind !== 'create-proxy' || !t.address) return undefined;
  return `Proxmox: done · address: ${addressWords[t.address.state]}`;
}

/** Where main said to fix a failure, as the view to open and the button's words. */
export const fixPlace: Record<FixAt, { view: ViewId; label: string }> = {
  templates: { view: 'templates', label: 'Open Templates' },
  settings: { view: 'settings', label: 'Open Settings' },
  proxies: { view: 'proxies', label: 'Open Proxies' },
  cleanup: { view: 'cleanup', label: 'Open Cleanup' },
  nodes: { view: 'nodes', label: 'Open Nodes' },
};
