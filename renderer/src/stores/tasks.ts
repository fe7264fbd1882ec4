/**
 * The tasks main runs, and the Proxmox task logs it follows. Loaded once,
 * then fed by `tasks.update` and `tasks.log`. Logs live here, not in a
 * view, so a task's log is still there after switching views and back.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { AppErrorValue, Envelope } from '../../../shared/errors';
import type {
  CreateProxiesInput,
  MigrateInput,
  PowerInput,
  ReconfigureInput,
  RecreateInput,
  TaskView,
} from '../../../shared/channels/tasks';

export interface LogLine {
  n: number;
  t: string;
}

export interface TaskLog {
  /** Sorted by line number, without duplicates. */
  lines: LogLine[];
  /** Lines Proxmox holds for this task, as of the last page read. */
  total: number | undefined;
  running: boolean | undefined;
  error: AppErrorValue | undefined;
}

export type TaskAction = TaskView['actions'][number];

/** A notice main sent for the window to show as a toast (browser mode: no desktop notifications there). */
export interface Toast {
  key: number;
  taskId: string;
  tone: 'ok' | 'warn' | 'bad';
  title: string;
  body: string;
  /** The alert it announces: the notice goes once that alert is acknowledged or resolved. */
  alertId?: number;
}

export interface TasksState {
  tasks: Record<string, TaskView>;
  logs: Record<string, TaskLog>;
  loaded: boolean;
  error: AppErrorValue | undefined;
  /** What the tasks snapshot says about the data folder: journal lines kept aside, disk full, read-only. */
  notices: string[];
  /** The last failed action per task, shown next to its buttons. */
  actionErrors: Record<string, AppErrorValue | undefined>;
  /** What main said a cancel leaves running, per task. */
  notes: Record<string, string | undefined>;
  /** The task whose details the Tasks view shows; kept here so it survives switching views. */
  selectedId: string | undefined;
  /** Toasts to show, oldest first (at most a few). */
  toasts: Toast[];
  addToast(toast: Omit<Toast, 'key'>): void;
  dismissToast(key: number): void;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  select(id: string | undefined): void;
  reload(): Promise<void>;
  upsert(task: TaskView): void;
  addLogLines(id: string, upid: string, lines: LogLine[]): void;
  /** Reads one page of a Proxmox task log; `start` is the 0-based line offset. */
  loadLog(id: string, upid: string, start?: number, limit?: number): Promise<void>;
  /** Tells main this window shows the task's log, so it follows it live (issue 11); returns the unsubscribe. */
  watchLog(id: string): () => void;
  act(id: string, action: TaskAction): Promise<Envelope<unknown>>;
  createProxies(input: CreateProxiesInput): Promise<Envelope<{ parentId?: string; taskIds: string[] }>>;
  /** `acknowledged`: the user confirmed the operator warning (main refuses an operator-made VM without it). */
  deleteProxies(clusterId: string, ids: string[], acknowledged?: boolean): Promise<Envelope<{ parentId?: string; taskIds: string[] }>>;
  /** Issue 16: start, shut down, stop or reboot proxies (main refuses what does not apply). */
  power(input: PowerInput): Promise<Envelope<{ parentId?: string; taskIds: string[] }>>;
  /** Issue 16: migrate, reconfigure or recreate proxies (main refuses what does not apply, before any task). */
  migrate(input: MigrateInput): Promise<Envelope<{ parentId?: string; taskIds: string[] }>>;
  reconfigure(input: ReconfigureInput): Promise<Envelope<{ parentId?: string; taskIds: string[] }>>;
  recreate(input: RecreateInput): Promise<Envelope<{ parentId?: string; taskIds: string[] }>>;
}

export const logKey = (id: string, upid: string) => `${id}|${upid}`;

const notAttached: AppErrorValue = {
  kind: 'transient',
  message: 'The window is not connected to Egress Desk yet.',
  hint: 'Wait a moment for the connection, then try again.',
};

function mergeLines(old: LogLine[], added: LogLine[]): LogLine[] {
  const byN = new Map(old.map((l) => [l.n, l]));
  for (const l of added) byN.set(l.n, l);
  return [...byN.values()].sort((a, b) => a.n - b.n);
}

const emptyLog: TaskLog = { lines: [], total: undefined, running: undefined, error: undefined };

/** The notices wait in the status bar's one place (Toasts.tsx), so more than a few can wait without taking room. */
const MAX_TOASTS = 20;
let toastKeys = 0;

export const useTasks = create<TasksState>((set, get) => ({
  tasks: {},
  logs: {},
  loaded: false,
  error: undefined,
  notices: [],
  actionErrors: {},
  notes: {},
  selectedId: undefined,
  api: undefined,
  toasts: [],

  select: (selectedId) => set({ selectedId }),

  addToast(toast) {
    set((s) => ({ toasts: [...s.toasts, { ...toast, key: ++toastKeys }].slice(-MAX_TOASTS) }));
  },

  dismissToast(key) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.key !== key) }));
  },

  attach(api) {
    set({ api });
    const offUpdate = api.on['tasks.update']((t) => get().upsert(t));
    const offLog = api.on['tasks.log']((e) => get().addLogLines(e.id, e.upid, e.lines));
    const offNotice = api.on['tasks.notice']((n) => get().addToast(n));
    void get().reload();
    return () => {
      offUpdate();
      offLog();
      offNotice();
    };
  },

  async reload() {
    const api = get().api;
    if (!api) return;
    const answer = await api.request['tasks.list']({});
    if (!answer.ok) {
      set({ error: answer.error });
      return;
    }
    // Updates pushed while the list was in flight may be newer than the list: keep them.
    const fresh = Object.fromEntries(answer.value.tasks.map((t) => [t.id, t]));
    set((s) => ({
      tasks: { ...fresh, ...pickNewer(s.tasks, fresh) },
      loaded: true,
      error: undefined,
      notices: answer.value.notices ?? [],
    }));
  },

  upsert(task) {
    set((s) => ({ tasks: { ...s.tasks, [task.id]: task } }));
  },

  addLogLines(id, upid, lines) {
    const key = logKey(id, upid);
    set((s) => {
      const log = s.logs[key] ?? emptyLog;
      const merged = mergeLines(log.lines, lines);
      const last = merged.at(-1)?.n ?? 0;
      return { logs: { ...s.logs, [key]: { ...log, lines: merged, total: Math.max(log.total ?? 0, last) } } };
    });
  },

  async loadLog(id, upid, start = 0, limit = 200) {
    const api = get().api;
    const key = logKey(id, upid);
    if (!api) {
      set((s) => ({ logs: { ...s.logs, [key]: { ...(s.logs[key] ?? emptyLog), error: notAttached } } }));
      return;
    }
    const answer = await api.request['tasks.log']({ id, upid, start, limit });
    set((s) => {
      const log = s.logs[key] ?? emptyLog;
      if (!answer.ok) return { logs: { ...s.logs, [key]: { ...log, error: answer.error } } };
      const { lines, total, running } = answer.value;
      return { logs: { ...s.logs, [key]: { lines: mergeLines(log.lines, lines), total, running, error: undefined } } };
    });
  },

  watchLog(id) {
    const api = get().api;
    if (!api) return () => undefined;
    void api.request['tasks.watchLog']({ id, on: true });
    return () => void api.request['tasks.watchLog']({ id, on: false });
  },

  async act(id, action) {
    const api = get().api;
    if (!api) return { ok: false, error: notAttached };
    const answer: Envelope<unknown> = await callAction(api, id, action);
    set((s) => ({ actionErrors: { ...s.actionErrors, [id]: answer.ok ? undefined : answer.error } }));
    if (answer.ok && action === 'cancel') {
      const { message } = answer.value as { message: string };
      set((s) => ({ notes: { ...s.notes, [id]: message } }));
    }
    if (answer.ok && (action === 'retry' || action === 'resume')) get().upsert(answer.value as TaskView);
    if (answer.ok && action === 'stop-it') {
      const { taskId } = answer.value as { taskId: string };
      set((s) => ({ notes: { ...s.notes, [id]: 'A stop task for this VM has started.' }, selectedId: s.selectedId === id ? taskId : s.selectedId }));
    }
    return answer;
  },

  async createProxies(input) {
    const api = get().api;
    if (!api) return { ok: false, error: notAttached };
    return api.request['tasks.createProxies'](input);
  },

  async deleteProxies(clusterId, ids, acknowledged) {
    const api = get().api;
    if (!api) return { ok: false, error: notAttached };
    return api.request['tasks.deleteProxies']({ clusterId, ids, ...(acknowledged ? { acknowledgeOperatorWarning: true as const } : {}) });
  },

  async power(input) {
    const api = get().api;
    if (!api) return { ok: false, error: notAttached };
    return api.request['tasks.power'](input);
  },

  async migrate(input) {
    const api = get().api;
    if (!api) return { ok: false, error: notAttached };
    return api.request['tasks.migrate'](input);
  },

  async reconfigure(input) {
    const api = get().api;
    if (!api) return { ok: false, error: notAttached };
    return api.request['tasks.reconfigure'](input);
  },

  async recreate(input) {
    const api = get().api;
    if (!api) return { ok: false, error: notAttached };
    return api.request['tasks.recreate'](input);
  },
}));

function callAction(api: DesktopApi, id: string, action: TaskAction): Promise<Envelope<unknown>> {
  switch (action) {
    case 'cancel':
      return api.request['tasks.cancel']({ id });
    case 'retry':
      return api.request['tasks.retry']({ id });
    case 'resume':
      return api.request['tasks.resume']({ id });
    case 'clean-up':
      return api.request['tasks.cleanUp']({ id });
    case 'stop-it':
    case 'wait-longer':
      return api.request['tasks.powerOffer']({ id, offer: action });
  }
}

/** Tasks in `current` that the list lacks or that changed after it was taken. */
function pickNewer(current: Record<string, TaskView>, fresh: Record<string, TaskView>): Record<string, TaskView> {
  const newer: Record<string, TaskView> = {};
  for (const [id, t] of Object.entries(current)) {
    const f = fresh[id];
    if (!f || t.progress > f.progress || (t.endedAt && !f.endedAt)) newer[id] = t;
  }
  return newer;
}

/** Tasks still at work: what the status bar counts. */
export function countRunning(tasks: Record<string, TaskView>): number {
  let n = 0;
  for (const t of Object.values(tasks)) if ((t.state === 'running' || t.state === 'queued') && t.kind !== 'create-proxies') n++;
  return n;
}

/** Newest first: running and queued, then the rest by creation time. */
export function sortedTasks(tasks: Record<string, TaskView>): TaskView[] {
  const live = (t: TaskView) => (t.state === 'running' || t.state === 'queued' ? 0 : 1);
  return Object.values(tasks).sort((a, b) => live(a) - live(b) || b.createdAt.localeCompare(a.createdAt));
}
