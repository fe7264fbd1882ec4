/**
 * Every wait the provider makes, in one place (spec entry 18). Tests shrink
 * them with `budgetsWith`.
 */
export interface Budgets {
  /** The clone task, and the wait for a VM's lock in the ownership check. */
  cloneMs: number;
  uploadMs: number;
  resizeMs: number;
  startMs: number;
  stopMs: number;
  destroyMs: number;
  seedDeleteMs: number;
  /** A snapshot's create, rollback or delete task (issue 25): a thin or ZFS snapshot is instant, a qcow2 one writes metadata. */
  snapshotMs: number;
  /** From the start task's end until status/current says running/running. */
  runningMs: number;
  /** Poll interval while a task is young: about four polls a second. */
  youngPollMs: number;
  /** How long a task counts as young. */
  youngForMs: number;
  /** Poll interval once a task is old: at most one poll a second. */
  oldPollMs: number;
}

export const defaultBudgets: Readonly<Budgets> = Object.freeze({
  cloneMs: 10 * 60_000,
  uploadMs: 2 * 60_000,
  resizeMs: 2 * 60_000,
  startMs: 2 * 60_000,
  stopMs: 2 * 60_000,
  destroyMs: 5 * 60_000,
  seedDeleteMs: 60_000,
  snapshotMs: 5 * 60_000,
  runningMs: 60_000,
  youngPollMs: 250,
  youngForMs: 5_000,
  oldPollMs: 1_000,
});

export function budgetsWith(overrides: Partial<Budgets>): Budgets {
  return { ...defaultBudgets, ...overrides };
}
