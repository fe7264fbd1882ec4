/**
 * Progress events: each step of create, delete, the power operations, migrate, reconfigure, recreate and the
 * template build reports itself so the UI can draw a step list with the Proxmox task behind the current step.
 * One event type serves every producer, the services' own steps too (a build's catalogue step, the seed
 * clean-up's one step): a reporter is typed by its operation's steps, the event by the step's name.
 */
import { ProviderError, transient, type PowerOp } from '../rules/errors';

/** `migrate`: the stopped clone moves from the template's node to the chosen one, before the seed (issue 11); skipped when the clone lands there. */
export const createSteps = ['lookup', 'clone', 'migrate', 'upload-seed', 'configure', 'resize', 'start', 'wait-running'] as const;
export const deleteSteps = ['lookup', 'stop', 'delete-seed', 'destroy'] as const;

/** Issue 16: each power operation's steps; its middle step is the one request that changes the VM. */
export const powerSteps = {
  start: ['lookup', 'start', 'wait-running'],
  shutdown: ['lookup', 'shutdown'],
  stop: ['lookup', 'stop'],
  reboot: ['lookup', 'reboot', 'wait-running'],
} as const;

/**
 * Issue 16, migrate.ts. The seed steps run only when the seed's storage is not shared (skipped otherwise):
 * copy-seed puts the same seed on the target, detach-seed empties the CD-ROM, migrate moves the VM,
 * attach-seed puts the seed back on the target, delete-source-seed removes the source node's copy.
 */
export const migrateSteps = ['lookup', 'copy-seed', 'detach-seed', 'migrate', 'attach-seed', 'delete-source-seed'] as const;
/**
 * Issue 16, reconfigure.ts. configure writes cores and memory; resize grows the boot disk; stage-seed uploads the new
 * seed under a temporary name and points the CD-ROM at it; replace-seed writes it under the seed's own name, points
 * the CD-ROM back and deletes the temporary copy; reboot (and wait-running) applies what needs a restart.
 */
export const reconfigureSteps = ['lookup', 'configure', 'resize', 'stage-seed', 'replace-seed', 'reboot', 'wait-running'] as const;
/** Issue 16, recreate.ts: the delete's steps, then the create's (its lookup is the delete's). */
export const recreateSteps = [
  'lookup',
  'stop',
  'delete-seed',
  'destroy',
  'clone',
  'migrate',
  'upload-seed',
  'configure',
  'resize',
  'start',
  'wait-running',
] as const;

export type CreateStep = (typeof createSteps)[number];
export type DeleteStep = (typeof deleteSteps)[number];
export type PowerStep = (typeof powerSteps)[PowerOp][number];
export type MigrateStep = (typeof migrateSteps)[number];
export type ReconfigureStep = (typeof reconfigureSteps)[number];
export type RecreateStep = (typeof recreateSteps)[number];
/** The provider's operations, whose steps stepsOf knows, and the template build (core/templates/build-steps.ts). */
export type ProviderProgressOp = 'create' | 'delete' | PowerOp | 'migrate' | 'reconfigure' | 'recreate';
export type ProgressOp = ProviderProgressOp | 'build-template' | 'snapshot' | 'rollback' | 'delete-snapshot';
export type ProviderStep = CreateStep | DeleteStep | PowerStep | MigrateStep | ReconfigureStep | RecreateStep;

/** What an event tells besides its step and phase; each field only where the step has it. */
export interface StepContext {
  node?: string;
  vmid?: number;
  upid?: string;
  /** A volume the step makes or deletes (the build's image: `<storage>:import/<file>`). */
  volid?: string;
  /**
   * On `started`: the request about to go out makes a new object (the build's image was not there, its VM did not
   * exist). The task manager journals it, so a resume or a clean-up knows the object is the task's own.
   */
  fresh?: boolean;
  /** A short word on why a step was skipped or how it ended (`reused`, `verified`, `kept`). */
  note?: string;
}

export interface ProgressEvent<Step extends string = string> extends StepContext {
  op: ProgressOp;
  step: Step;
  /** 1-based position of the step, and how many steps the operation has (0 and 0: a step the services add). */
  index: number;
  total: number;
  /** started: the step began; task: a Proxmox task runs for it; skipped: not needed this time; done: finished. */
  phase: 'started' | 'task' | 'skipped' | 'done';
}

/**
 * Called before each step's request goes out (and as each Proxmox task starts
 * and each step ends). A listener that throws stops the operation there: the
 * task manager journals every event, and a step it could not record must not
 * be taken (docs/reliability.md).
 */
export type ProgressListener<Step extends string = string> = (event: ProgressEvent<Step>) => void;

const providerKinds = new Set<string>(['permanent', 'transient', 'not-found']);

/** The listener's error as the operation's: its class, message and hint kept when it carries them (an AppError does). */
function stopped(e: unknown): ProviderError {
  if (e instanceof ProviderError) return e;
  const r = (typeof e === 'object' && e !== null ? e : {}) as { kind?: unknown; message?: unknown; hint?: unknown };
  if (typeof r.kind === 'string' && providerKinds.has(r.kind) && typeof r.message === 'string') {
    const hint = typeof r.hint === 'string' && r.hint.length > 0 ? r.hint : undefined;
    return new ProviderError(r.kind as ProviderError['kind'], r.message, undefined, undefined, hint);
  }
  return transient(`progress could not be recorded: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * A reporter bound to one operation. When the listener throws, the reporter
 * throws that error, now and at every later report of the operation, so no
 * request leaves after a step that could not be recorded: not even where the
 * operation catches a step's failure and goes on (the seed delete on every node).
 */
export function stepReporter<Step extends string>(
  op: ProgressOp,
  steps: readonly Step[],
  listener: ProgressListener<Step> | undefined,
): StepReporter<Step> {
  let failure: ProviderError | undefined;
  return (step, phase, context = {}) => {
    if (failure) throw failure;
    if (!listener) return;
    try {
      listener({ op, step, index: steps.indexOf(step) + 1, total: steps.length, phase, ...context });
    } catch (e) {
      failure = stopped(e);
      throw failure;
    }
  };
}

export type StepReporter<Step extends string> = (step: Step, phase: ProgressEvent['phase'], context?: StepContext) => void;

/** The reporter of one of the provider's operations, over its steps (stepsOf). */
export function progressReporter(op: ProviderProgressOp, listener: ProgressListener<ProviderStep> | undefined): ProgressReporter {
  return stepReporter(op, stepsOf(op), listener);
}

export type ProgressReporter = StepReporter<ProviderStep>;

/**
 * An operation's reporter and signal, cut together: once a step could not be recorded (the listener threw), the
 * signal aborts at once, so a branch running beside the one that threw (create's seed upload beside its clone)
 * sends nothing more either.
 */
export function haltingReporter<Step extends string>(report: StepReporter<Step>, signal: AbortSignal | undefined) {
  const controller = new AbortController();
  const guarded: StepReporter<Step> = (step, phase, context) => {
    try {
      report(step, phase, context);
    } catch (e) {
      controller.abort();
      throw e;
    }
  };
  return { report: guarded, signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal };
}

/** Every step of an operation, in order: what a task shows before it starts. */
export function stepsOf(op: ProviderProgressOp): readonly ProviderStep[] {
  switch (op) {
    case 'create':
      return createSteps;
    case 'delete':
      return deleteSteps;
    case 'migrate':
      return migrateSteps;
    case 'reconfigure':
      return reconfigureSteps;
    case 'recreate':
      return recreateSteps;
    default:
      return powerSteps[op];
  }
}
