/**
 * A bulk request: one child task per VM, each under its node's slots like
 * any task, and, when there are several, one parent that runs nothing and
 * shows their state, progress and summary (outcomes.ts parentOutcome; kept
 * in step by task-events.ts). Cancel, Retry and Resume on the parent act on
 * each child that allows it (cancel.ts, follow-ups.ts).
 */
import type { bulkParentKinds } from '../../../../shared/channels/tasks';
import type { ManagerParts } from '../manager-parts';
import type { TaskRecord } from '../records/task-record';

export interface BulkRequest {
  kind: (typeof bulkParentKinds)[number];
  clusterId: string;
  /** The parent's target in words: "Reboot 3 proxies". */
  target: string;
}

/** Journals the parent (with its children's ids) then each child, and queues the children. */
export function submitBulk(parts: ManagerParts, request: BulkRequest, children: TaskRecord[]): { parentId?: string; taskIds: string[] } {
  const parent =
    children.length > 1
      ? parts.newRecord(request.kind, request.clusterId, request.target, { kind: request.kind }, { childIds: children.map((c) => c.id) })
      : undefined;
  const tasks = parent ? children.map((c) => ({ ...c, parentId: parent.id })) : children;
  if (parent) parts.store.put(parent);
  for (const t of tasks) parts.submit(t);
  return { ...(parent ? { parentId: parent.id } : {}), taskIds: tasks.map((t) => t.id) };
}

/** Refuses a request that names one VM twice, before anything is read or sent. */
export function distinctTargets<T>(targets: readonly T[], key: (t: T) => number | string, refuse: (dup: T) => Error): void {
  const seen = new Set<number | string>();
  for (const t of targets) {
    if (seen.has(key(t))) throw refuse(t);
    seen.add(key(t));
  }
}
