/**
 * Progress events: each step of create and delete reports itself so the UI
 * can draw a step list with the Proxmox task behind the current step.
 */
export const createSteps = ['lookup', 'clone', 'upload-seed', 'configure', 'resize', 'start', 'wait-running'] as const;
export const deleteSteps = ['lookup', 'stop', 'delete-seed', 'destroy'] as const;

export type CreateStep = (typeof createSteps)[number];
export type DeleteStep = (typeof deleteSteps)[number];

export interface ProgressEvent {
  op: 'create' | 'delete';
  step: CreateStep | DeleteStep;
  /** 1-based position of the step, and how many steps the operation has. */
  index: number;
  total: number;
  /** started: the step began; task: a Proxmox task runs for it; skipped: not needed this time; done: finished. */
  phase: 'started' | 'task' | 'skipped' | 'done';
  node?: string;
  vmid?: number;
  upid?: string;
}

export type ProgressListener = (event: ProgressEvent) => void;

export interface StepContext {
  node?: string;
  vmid?: number;
  upid?: string;
}

/** A reporter bound to one operation; a listener that throws never breaks the operation. */
export function progressReporter(op: 'create' | 'delete', listener: ProgressListener | undefined) {
  const steps: readonly string[] = op === 'create' ? createSteps : deleteSteps;
  return (step: CreateStep | DeleteStep, phase: ProgressEvent['phase'], context: StepContext = {}): void => {
    if (!listener) return;
    try {
      listener({ op, step, index: steps.indexOf(step) + 1, total: steps.length, phase, ...context });
    } catch {
      // The UI's problem must not become the operation's.
    }
  };
}

export type ProgressReporter = ReturnType<typeof progressReporter>;
