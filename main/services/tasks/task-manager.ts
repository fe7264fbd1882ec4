/**
 * The task manager: every admin action runs here as a task with steps,
 * progress, the Proxmox tasks it started and their logs, under bounded
 * concurrency (globally and per node), journalled so a crash leaves it
 * listed as interrupted with Resume and Clean up.
 */
import { randomUUID } from 'node:crypto';
import { ADDRESS_STEP, type CreateProxiesInput, type PowerInput, type SeedRef, type TaskKind, type TaskView } from '../../../shared/channels/tasks';
import { powerActionLabel, powerApplies } from '../../../shared/domain/power-actions';
import { createSteps, DEFAULT_SHUTDOWN_TIMEOUT_SECONDS, deleteSteps, formatProviderId, parseProviderId, type ProgressEvent } from '../../core';
import { powerSteps } from '../../core/provider/progress';
import { KeyedLock } from '../../core/provider/keyed-lock';
import { AppError, internalErrorValue, toAppErrorValue } from '../../ipc/app-error';
import type { Logger } from '../../log/logger';
import { cleanSeeds } from '../cleanup/clean-seeds';
import type { ClusterDirectory } from '../clusters/cluster';
import { AddressWatch, DEFAULT_ADDRESS_WAIT_MS, type AddressFeed, type AddressOutcome, type Watched } from './address-watch';
import { describeCancellation, stopProxmoxTask } from './cancel';
import { followTaskLog } from './log-follower';
import { silentNotifier, type Notifier } from './notifier';
import { fixAtOf, leftBehindOf, settleSteps } from './offers';
import { parentOutcome } from './outcomes';
import { pickNodes } from './pick-nodes';
import { proxyNames } from './proxy-names';
import type { NameGuard, RunContext, Runner } from './run-context';
import {
  buildTemplateRunner,
  buildTemplateSteps,
  cleanUpBuildInput,
  cleanUpBuildRunner,
  cleanUpBuildSteps,
  type TemplateBuildDeps,
} from './build-template-runner';
import { cleanUp, createProxy, deleteProxy, doctorRunner, expectationsForDelete, powerProxy, type DoctorRun } from './runners';
import { createFileKeySealer, type Sealer } from './sealer';
import { createCloneGates } from './clone-gate';
import { defaultLimits, Slots, type Limits } from './slots';
import { applyProgress, freshSteps, runningUpid } from './steps';
import {
  finishedStates,
  holdsItsName,
  isPowerInput,
  nameOf,
  toView,
  type PowerProxyInput,
  type TaskInput,
  type TaskRecord,
} from './task-record';
import { TaskStore } from './task-store';

/** Catalogue keys of the profile a proxy was made from. */
export interface ProxyOrigin {
  template: string;
  machineType: string;
}

export interface TaskManagerOptions {
  directory: ClusterDirectory;
  /** Where the journal (and the key that seals cloud-init texts) lives. */
  journalDir: string;
  logger: Logger;
  /** Receives `tasks.update` views and `tasks.log` lines (the event bus). */
  publish?: (event: PublishedEvent) => void;
  limits?: Partial<Limits>;
  notifier?: Notifier;
  /**
   * Only work that ran at least this long ends with a desktop notification (default 10 s). A proxy's address, or
   * its create failing, is told whatever the task's length.
   */
  notifyAfterMs?: number;
  /**
   * The inventory's rows and changes: with it, a create's last step waits for the proxy's address (the guest
   * agent's, as the inventory reads it). Without it a create ends when Proxmox's part does.
   */
  addresses?: AddressFeed;
  /** How long a create waits for its address before it gives up, with the reason (default 10 min). */
  addressWaitMs?: number;
  /**
   * What else the app has to say about its data folder beside the journal's own notices (the profile file's: a disk
   * full or read-only at first start). Shown with the tasks snapshot.
   */
  notices?: () => string[];
  /** How long a cancel may spend stopping the Proxmox task and reading how it ended (default 5 s). */
  stopBudgetMs?: number;
  /** Called when a task that changed a cluster ends, so the inventory refreshes at once. */
  onOperationFinished?: (clusterId: string) => void;
  runDoctor?: DoctorRun;
  /** The template builder's catalogue and budgets (build-template-runner.ts). */
  templateBuild?: TemplateBuildDeps;
  sealer?: Sealer;
  /** Finished top-level tasks kept (default 500). */
  historyLimit?: number;
  logFollowMs?: number;
  updateThrottleMs?: number;
  now?: () => Date;
}

export type PublishedEvent =
  | { name: 'tasks.update'; payload: TaskView }
  | { name: 'tasks.log'; payload: { id: string; upid: string; lines: { n: number; t: string }[] } };

export type TaskManager = ReturnType<typeof createTaskManager>;

const baseSteps: Record<TaskKind, readonly string[]> = {
  'create-proxy': createSteps,
  'create-proxies': [],
  'delete-proxy': deleteSteps,
  'clean-up': deleteSteps,
  'clean-seeds': ['re-check and delete'],
  doctor: ['doctor'],
  'build-template': buildTemplateSteps,
  'clean-up-build': cleanUpBuildSteps,
  'start-proxy': powerSteps.start,
  'shutdown-proxy': powerSteps.shutdown,
  'stop-proxy': powerSteps.stop,
  'reboot-proxy': powerSteps.reboot,
  'power-proxies': [],
};

/** The parents of a bulk request: they run nothing, their children do. */
const isParentKind = (kind: TaskKind) => kind === 'create-proxies' || kind === 'power-proxies';

export function createTaskManager(o: TaskManagerOptions) {
  const log = o.logger.child({ part: 'tasks' });
  const now = o.now ?? (() => new Date());
  const publish = o.publish ?? (() => undefined);
  const notifier = o.notifier ?? silentNotifier;
  const sealer = o.sealer ?? createFileKeySealer(o.journalDir);
  const slots = new Slots({ ...defaultLimits, ...o.limits });
  // A create's full clone (and migrate) also takes a copy slot of its storage, for that Proxmox task alone.
  const cloneGateFor = createCloneGates({ slots, api: (clusterId) => o.directory.get(clusterId).api, log });
  const locks = new KeyedLock();
  const controllers = new Map<string, AbortController>();
  const settled = new Map<string, Promise<void>>();
  let showingProgress = false;
  // With the inventory to feed it, a create's last step is its address: the proxy is usable when it has one.
  const stepsOf: Record<TaskKind, readonly string[]> = o.addresses
    ? { ...baseSteps, 'create-proxy': [...createSteps, ADDRESS_STEP] }
    : baseSteps;
  const cancelling = new Set<string>();
  /** A cancel under way (stopping the Proxmox task, then recording how it ended): wait() waits for it too. */
  const stopping = new Map<string, Promise<void>>();
  const store = new TaskStore({
    dir: o.journalDir,
    log,
    historyLimit: o.historyLimit ?? 500,
    throttleMs: o.updateThrottleMs ?? 250,
    now,
    publish: (payload) => publish({ name: 'tasks.update', payload }),
  });

  // Which proxies this app made, and from what: the inventory labels rows with it. Indexed once, kept in step on
  // each create, so a refresh over thousands of VMs costs one map lookup per marked VM.
  const origins = new Map<string, ProxyOrigin>();
  const noteOrigin = (t: TaskRecord) => {
    if (t.input.kind === 'create-proxy')
      origins.set(`${t.clusterId}/${t.input.uid}`, { template: t.input.template, machineType: t.input.machineType });
  };
  for (const t of store.all()) noteOrigin(t);

  const names: NameGuard = {
    busy: (clusterId, name, exceptId) =>
      store.all().find((t) => t.id !== exceptId && t.clusterId === clusterId && holdsItsName(t) && nameOf(t) === name),
    lock: (clusterId, name, signal) => locks.acquire(`${clusterId}/${name}`, signal),
  };

  const runners: Record<TaskKind, Runner> = {
    'create-proxy': createProxy,
    'create-proxies': async () => '',
    'delete-proxy': deleteProxy,
    'clean-up': cleanUp,
    'clean-seeds': cleanSeeds,
    doctor: doctorRunner(o.runDoctor),
    'build-template': buildTemplateRunner(o.templateBuild),
    'clean-up-build': cleanUpBuildRunner(o.templateBuild),
    'start-proxy': powerProxy,
    'shutdown-proxy': powerProxy,
    'stop-proxy': powerProxy,
    'reboot-proxy': powerProxy,
    'power-proxies': async () => '',
  };

  function mustGet(id: string): TaskRecord {
    const task = store.get(id);
    if (!task)
      throw new AppError(
        'not-found',
        `There is no task with id "${id}".`,
        'Refresh the task list; it may have been dropped from the history.',
      );
    return task;
  }

  function newRecord(kind: TaskKind, clusterId: string, target: string, input: TaskInput, extra: Partial<TaskRecord> = {}): TaskRecord {
    return {
      id: randomUUID(),
      kind,
      clusterId,
      target,
      state: 'queued',
      progress: 0,
      steps: freshSteps(stepsOf[kind]),
      upids: [],
      createdAt: now().toISOString(),
      attempts: 0,
      input,
      ...extra,
    };
  }

  function submit(task: TaskRecord): void {
    store.put(task);
    schedule(task.id);
  }

  function schedule(id: string): void {
    const done = run(id).finally(() => settled.delete(id));
    settled.set(id, done);
  }

  async function run(id: string): Promise<void> {
    const controller = new AbortController();
    controllers.set(id, controller);
    const { signal } = controller;
    let task = mustGet(id);
    let release: (() => void) | undefined;
    try {
      release = await slots.acquire(`${task.clusterId}/${task.node ?? ''}`, signal);
      task = store.update(id, { state: 'running', startedAt: now().toISOString(), attempts: task.attempts + 1 });
      afterChange(task);
      const ctx = contextFor(task, signal);
      const message = await runners[task.kind](ctx);
      if (!signal.aborted) succeeded(id, message);
    } catch (e) {
      if (signal.aborted) return; // cancel() has already told the story
      const error = toAppErrorValue(e) ?? internalErrorValue;
      if (!toAppErrorValue(e)) log.error('task failed unexpectedly', { id, error: e });
      const fixAt = fixAtOf(error);
      finish(id, { state: 'failed', error, message: error.message, steps: settleSteps(mustGet(id).steps, 'failed'), fixAt });
      const failed = mustGet(id);
      if (failed.kind === 'create-proxy') {
        const left = leftBehindOf(failed);
        notifier.notify(`${failed.target}: create failed`, `${error.message}${left ? ` Left in Proxmox: ${left}.` : ''}`, {
          taskId: id,
          tone: 'bad',
        });
      }
    } finally {
      release?.();
      controllers.delete(id);
    }
  }

  /** Proxmox's part is done. A create with an inventory to feed it then waits for its address: its last step. */
  function succeeded(id: string, message: string): void {
    const task = mustGet(id);
    if (task.kind !== 'create-proxy' || !addressWatch || task.vmid === undefined || task.input.kind !== 'create-proxy') {
      finish(id, { state: 'succeeded', progress: 1, message });
      return;
    }
    const since = now();
    const steps = task.steps.map((s) => (s.name === ADDRESS_STEP ? { ...s, state: 'running' as const, ...(task.node ? { node: task.node } : {}) } : s));
    finish(id, {
      state: 'succeeded',
      progress: 1,
      steps,
      message: `${message} Waiting for its address from the guest agent.`,
      address: { state: 'waiting', since: since.toISOString() },
    });
    addressWatch.watch(watchedOf(mustGet(id)));
  }

  function watchedOf(task: TaskRecord): Watched {
    const input = task.input as Extract<TaskRecord['input'], { kind: 'create-proxy' }>;
    return {
      taskId: task.id,
      clusterId: task.clusterId,
      vmid: task.vmid!,
      uid: input.uid,
      name: input.name,
      since: Date.parse(task.address?.since ?? now().toISOString()),
    };
  }

  function addressSettled(w: Watched, outcome: AddressOutcome): void {
    const task = store.get(w.taskId);
    if (!task || task.address?.state !== 'waiting') return;
    const at = now().toISOString();
    const where = `VM ${w.vmid}${task.node ? ` on ${task.node}` : ''}`;
    const ready = outcome.state === 'ready';
    const steps = task.steps.map((s) => (s.name === ADDRESS_STEP ? { ...s, state: ready ? ('done' as const) : ('failed' as const) } : s));
    const fields: Partial<TaskRecord> = ready
      ? { steps, address: { ...task.address, state: 'ready', value: outcome.value, at }, message: `${w.name} is ready at ${outcome.value} (${where}).` }
      : {
          steps,
          address: { ...task.address, state: 'gave-up', at, reason: outcome.reason, hint: outcome.hint },
          message: `${w.name} runs (${where}), but has no address: ${outcome.reason}`,
        };
    try {
      afterChange(store.update(w.taskId, fields));
    } catch (e) {
      log.warn('address of a created proxy not recorded', { id: w.taskId, error: String(e) });
      return;
    }
    if (ready) notifier.notify(`${w.name} is ready`, `Address ${outcome.value} · ${where}`, { taskId: w.taskId, tone: 'ok' });
    else notifier.notify(`${w.name}: no address`, `${outcome.reason} ${outcome.hint}`, { taskId: w.taskId, tone: 'warn' });
  }

  const addressWatch = o.addresses
    ? new AddressWatch({
        feed: o.addresses,
        waitMs: o.addressWaitMs ?? DEFAULT_ADDRESS_WAIT_MS,
        now: () => now().getTime(),
        settle: addressSettled,
      })
    : undefined;
  // A wait the last run left open goes on (within its bound, counted from when it began).
  if (addressWatch)
    for (const t of store.all()) if (t.address?.state === 'waiting' && t.vmid !== undefined && t.input.kind === 'create-proxy') addressWatch.watch(watchedOf(t));

  /** The cluster a task was made for. A task outlives its cluster; a removed one is said in words, not as an unknown id. */
  function clusterOfTask(task: { clusterId: string }) {
    try {
      return o.directory.get(task.clusterId);
    } catch (e) {
      if (!(e instanceof AppError && e.kind === 'not-found')) throw e;
      throw new AppError(
        'not-found',
        'Cluster removed: the cluster this task ran on is no longer in Egress Desk, so Proxmox cannot be asked about it.',
        'Its record stays here to read; add the cluster again in Settings to act on it.',
      );
    }
  }

  function contextFor(task: TaskRecord, signal: AbortSignal): RunContext {
    const update = (fields: Partial<TaskRecord>) => {
      if (!signal.aborted) afterChange(store.update(task.id, fields));
    };
    return {
      task,
      current: () => mustGet(task.id),
      cluster: clusterOfTask(task),
      signal,
      names,
      log,
      update,
      onProgress: (e: ProgressEvent) => {
        // Journalled (fsync'd) here, before the core sends the step's request.
        update(applyProgress(mustGet(task.id), e));
        if (e.phase === 'task' && e.upid) follow(task.id, e.upid, signal);
      },
      cloneGate: cloneGateFor(task.clusterId),
      openCloudInit: async () => {
        const input = mustGet(task.id).input;
        if (input.kind !== 'create-proxy' || input.sealedCloudInit === undefined) throw new Error('no sealed cloud-init');
        return sealer.open(input.sealedCloudInit);
      },
    };
  }

  // Issue 11: a Proxmox task's log is followed live only while a user watches that task (the Tasks view shows it and
  // says so with `tasks.watchLog`); log-follower.ts says why. Counted per subscription (several windows may watch).
  const watching = new Map<string, number>();
  /** `<task id>|<upid>` being followed now, so a second watch does not start a second follower. */
  const following = new Set<string>();

  function follow(id: string, upid: string, signal: AbortSignal, once = false): void {
    if (!watching.has(id)) return;
    const key = `${id}|${upid}`;
    if (following.has(key)) return;
    following.add(key);
    const task = mustGet(id);
    const live = () => {
      const t = store.get(id);
      return !once && t?.state === 'running' && t.steps.some((s) => s.upid === upid && s.state === 'running');
    };
    void followTaskLog({
      api: clusterOfTask(task).api,
      upid,
      intervalMs: o.logFollowMs ?? 1000,
      live,
      watched: () => watching.has(id),
      signal,
      log,
      onLines: (lines) => publish({ name: 'tasks.log', payload: { id, upid, lines } }),
    }).finally(() => following.delete(key));
  }

  /**
   * A user starts (`on`) or stops watching a task's log. Starting follows its running Proxmox task live; a step that
   * ended in the last few seconds (between the view's own read and this call) gets one last read, so its `TASK OK`
   * is not missed.
   */
  function watchLog(id: string, on: boolean): void {
    const n = (watching.get(id) ?? 0) + (on ? 1 : -1);
    if (n > 0) watching.set(id, n);
    else watching.delete(id);
    const t = store.get(id);
    if (!on || !t) return;
    const recent = t.state === 'running' || (t.endedAt !== undefined && now().getTime() - Date.parse(t.endedAt) < 10_000);
    if (!recent) return;
    const running = controllers.get(id)?.signal;
    for (const s of t.steps) {
      if (!s.upid) continue;
      if (s.state === 'running' && t.state === 'running' && running) follow(id, s.upid, running);
      else if (s.state !== 'pending') follow(id, s.upid, AbortSignal.timeout(30_000), true);
    }
  }

  function finish(id: string, fields: Partial<TaskRecord>): void {
    const task = store.update(id, { ...fields, endedAt: now().toISOString() });
    afterChange(task);
    if (task.kind !== 'doctor' && !isParentKind(task.kind)) o.onOperationFinished?.(task.clusterId);
    store.prune();
  }

  /** Keeps the parent in step with its children, and the notification and taskbar with the top-level work. */
  function afterChange(task: TaskRecord): void {
    if (task.parentId) {
      const parent = store.get(task.parentId);
      const children = store.children(task.parentId);
      if (parent) {
        const outcome = parentOutcome(children);
        const endedAt = finishedStates.has(outcome.state) ? (parent.endedAt ?? now().toISOString()) : undefined;
        afterChange(store.update(parent.id, { ...outcome, endedAt }));
      }
      return;
    }
    // A create's failure and its address are told whatever the length (see run() and addressSettled()).
    const toldElsewhere = task.kind === 'create-proxy' && (task.state === 'failed' || task.address !== undefined);
    if (!toldElsewhere && finishedStates.has(task.state) && task.endedAt && task.startedAt) {
      const took = Date.parse(task.endedAt) - Date.parse(task.startedAt);
      if (took >= (o.notifyAfterMs ?? 10_000)) notifier.notify(`${task.target}: ${task.state}`, task.message ?? '');
    }
    const active = store.all().filter((t) => !t.parentId && !finishedStates.has(t.state));
    if (active.length > 0) {
      showingProgress = true;
      notifier.progress(active.reduce((n, t) => n + t.progress, 0) / active.length);
    } else if (showingProgress) {
      showingProgress = false;
      notifier.progress(null);
    }
  }

  async function createProxies(input: CreateProxiesInput): Promise<{ parentId?: string; taskIds: string[] }> {
    const cluster = o.directory.get(input.clusterId);
    const { profile } = cluster;
    if (!profile.templates[input.template])
      throw new AppError(
        'invalid-input',
        `There is no template "${input.template}" in this cluster's profile.`,
        'Pick a template from the list.',
        'template',
      );
    if (!profile.machineTypes[input.machineType])
      throw new AppError(
        'invalid-input',
        `There is no machine type "${input.machineType}" in this cluster's profile.`,
        'Pick a machine type from the list.',
        'machineType',
      );
    if (input.node !== undefined && !profile.nodes.includes(input.node))
      throw new AppError(
        'invalid-input',
        `The node "${input.node}" is not in this cluster's profile.`,
        'Pick a node from the list, or let the app choose.',
        'node',
      );
    const proxies = proxyNames(input.count, input.name);
    for (const name of proxies) {
      if (names.busy(cluster.id, name))
        throw new AppError(
          'permanent',
          `A task is already working on ${name}.`,
          'Wait for it to end, or resolve it (Resume or Clean up), then try again.',
          'name',
        );
    }
    const nodes = input.node !== undefined ? proxies.map(() => input.node!) : await pickNodes(cluster, proxies.length, input.template);
    const sealedCloudInit = await sealer.seal(input.cloudInit);
    const parent =
      proxies.length > 1
        ? newRecord('create-proxies', cluster.id, `${proxies.length} proxies`, { kind: 'create-proxies' }, { childIds: [] })
        : undefined;
    const tasks = proxies.map((name, i) =>
      newRecord(
        'create-proxy',
        cluster.id,
        name,
        {
          kind: 'create-proxy',
          uid: randomUUID(),
          name,
          node: nodes[i]!,
          template: input.template,
          machineType: input.machineType,
          sealedCloudInit,
        },
        { node: nodes[i]!, ...(parent ? { parentId: parent.id } : {}) },
      ),
    );
    if (parent) store.put({ ...parent, childIds: tasks.map((t) => t.id) });
    for (const t of tasks) noteOrigin(t);
    for (const t of tasks) submit(t);
    return { ...(parent ? { parentId: parent.id } : {}), taskIds: tasks.map((t) => t.id) };
  }

  async function deleteProxies(clusterId: string, ids: string[]): Promise<{ taskIds: string[] }> {
    const cluster = o.directory.get(clusterId);
    const parsed = ids.map((id) => {
      try {
        return { id, ...parseProviderId(id) };
      } catch {
        throw new AppError('invalid-input', `"${id}" is not a proxy id (vms/<vmid>/<name>).`, 'Pick proxies from the inventory.', 'ids');
      }
    });
    // One listing tells every VM's node, so each delete takes its node's slot; with the configs it tells what each ID
    // means (the mark's UID), and refuses an ID whose VMID, name and mark disagree before any task exists.
    const listed = await cluster.api.clusterResources('vm');
    const expected = await expectationsForDelete(cluster, parsed, listed);
    const tasks = parsed.map((p, i) => {
      const node = listed.find((r) => r.vmid === p.vmid)?.node;
      return newRecord(
        'delete-proxy',
        clusterId,
        p.name,
        { kind: 'delete-proxy', providerId: p.id, expect: expected[i]! },
        { vmid: p.vmid, ...(node ? { node } : {}) },
      );
    });
    for (const t of tasks) submit(t);
    return { taskIds: tasks.map((t) => t.id) };
  }

  /**
   * Issue 16: one task per VM (under one parent when there are several). What each target means is read now, with
   * delete's identity read: a VM whose VMID, name and mark disagree, a foreign one, or one the action does not apply
   * to (shared/domain/power-actions.ts) refuses the whole request before any task exists.
   */
  async function powerProxies(input: PowerInput): Promise<{ parentId?: string; taskIds: string[] }> {
    const cluster = o.directory.get(input.clusterId);
    const { action } = input;
    const label = powerActionLabel[action].toLowerCase();
    const seen = new Set<number>();
    for (const t of input.targets) {
      if (seen.has(t.vmid))
        throw new AppError('invalid-input', `VM ${t.vmid} is asked for twice.`, 'Pick each proxy once.', 'targets');
      seen.add(t.vmid);
    }
    const ids = input.targets.map((t) => ({ id: formatProviderId(t.vmid, t.name), vmid: t.vmid, name: t.name }));
    const listed = await cluster.api.clusterResources('vm');
    const nothing = `Nothing was ${action === 'shutdown' ? 'shut down' : action === 'stop' ? 'stopped' : action === 'start' ? 'started' : 'rebooted'}.`;
    const expected = await expectationsForDelete(cluster, ids, listed, { nothing, acts: `${label}s` });
    const refusals: string[] = [];
    const uids = input.targets.map((t, i) => {
      const e = expected[i]!;
      const r = listed.find((x) => x.vmid === t.vmid && x.type === 'qemu');
      if (e === 'absent' || !r) {
        refusals.push(`No VM ${t.vmid} (${t.name}) is left: it is gone`);
        return '';
      }
      if (!e.uid) {
        refusals.push(`VM ${t.vmid} carries a mark without a UID`);
        return '';
      }
      const applies = powerApplies({ status: r.status ?? 'unknown', owner: 'marked', lock: r.lock }, action);
      if (!applies.enabled) refusals.push(`${t.name} (VM ${t.vmid}): ${applies.reason ?? 'does not apply'}`);
      return e.uid;
    });
    if (refusals.length > 0)
      throw new AppError(
        'invalid-input',
        `${powerActionLabel[action]} does not apply: ${refusals.join('; ')}. ${nothing}`,
        'Refresh the inventory and pick the proxies again.',
        'targets',
      );
    const kind = `${action}-proxy` as PowerProxyInput['kind'];
    const parent =
      input.targets.length > 1
        ? newRecord('power-proxies', cluster.id, `${powerActionLabel[action]} ${input.targets.length} proxies`, { kind: 'power-proxies' }, { childIds: [] })
        : undefined;
    const tasks = input.targets.map((t, i) => {
      const node = listed.find((r) => r.vmid === t.vmid)?.node;
      const record: PowerProxyInput = {
        kind,
        clusterId: cluster.id,
        vmid: t.vmid,
        name: t.name,
        uid: uids[i]!,
        ...(input.timeoutSeconds !== undefined ? { timeoutSeconds: input.timeoutSeconds } : {}),
      };
      return newRecord(kind, cluster.id, t.name, record, { vmid: t.vmid, ...(node ? { node } : {}), ...(parent ? { parentId: parent.id } : {}) });
    });
    if (parent) store.put({ ...parent, childIds: tasks.map((t) => t.id) });
    for (const t of tasks) submit(t);
    return { ...(parent ? { parentId: parent.id } : {}), taskIds: tasks.map((t) => t.id) };
  }

  /** After a shutdown the guest ignored: Stop it (a new stop task, closing this one) or Wait longer (this task again, its timeout doubled). */
  function powerOffer(id: string, offer: 'stop-it' | 'wait-longer'): { taskId: string } {
    const task = mustGet(id);
    const input = task.input;
    if (!isPowerInput(input) || !toView(task).actions.includes(offer))
      throw new AppError(
        'permanent',
        `This task does not offer ${offer === 'stop-it' ? 'Stop it' : 'Wait longer'}: it is ${task.state}${task.closedBy ? ' and was followed by another task' : ''}.`,
        'Stop it and Wait longer follow a shutdown or reboot the guest ignored.',
      );
    if (offer === 'wait-longer') {
      const timeoutSeconds = Math.min(3600, 2 * (input.timeoutSeconds ?? DEFAULT_SHUTDOWN_TIMEOUT_SECONDS));
      store.update(id, { input: { ...input, timeoutSeconds, timedOut: undefined } });
      rerun(id, 'retry');
      return { taskId: id };
    }
    const stop: PowerProxyInput = { kind: 'stop-proxy', clusterId: input.clusterId, vmid: input.vmid, name: input.name, uid: input.uid };
    const job = newRecord('stop-proxy', task.clusterId, input.name, stop, { vmid: input.vmid, ...(task.node ? { node: task.node } : {}) });
    afterChange(store.update(id, { closedBy: job.id }));
    submit(job);
    return { taskId: job.id };
  }

  /**
   * Stops the task's own work at once, and the Proxmox task its step waits on (DELETE on the task, within a few
   * seconds); answers what was stopped and what is left in Proxmox or still runs there.
   */
  async function cancel(id: string): Promise<{ message: string }> {
    const task = mustGet(id);
    if (isParentKind(task.kind)) {
      const open = store.children(id).filter((c) => !finishedStates.has(c.state));
      const messages = await Promise.all(open.map(async (c) => `${c.target}: ${(await cancel(c.id)).message}`));
      return { message: messages.length > 0 ? messages.join('\n') : 'Nothing to cancel: every proxy of this request has finished.' };
    }
    if (finishedStates.has(task.state))
      return { message: `Nothing to cancel: the task has already ${task.state === 'succeeded' ? 'succeeded' : 'ended'}.` };
    if (cancelling.has(id)) return { message: 'Already cancelling: Egress Desk is stopping the Proxmox task.' };
    cancelling.add(id);
    const work = (async () => {
      try {
        const running = task.state === 'running' ? runningUpid(task.steps) : undefined;
        controllers.get(id)?.abort();
        const stop = running
          ? await stopProxmoxTask(clusterOfTask(task).api, running.upid, { budgetMs: o.stopBudgetMs ?? 5000, log })
          : undefined;
        const steps = settleSteps(mustGet(id).steps, 'cancelled');
        const left = leftBehindOf({ ...mustGet(id), state: 'cancelled', steps });
        const message = describeCancellation(task, stop, left);
        finish(id, { state: 'cancelled', message, steps });
        return { message };
      } finally {
        cancelling.delete(id);
      }
    })();
    // wait() ends with the cancel, not when the aborted run returns while the Proxmox task is still being stopped.
    const ended = work.then(
      () => undefined,
      () => undefined,
    );
    stopping.set(id, ended);
    void ended.finally(() => stopping.delete(id));
    return work;
  }

  function rerun(id: string, action: 'retry' | 'resume'): TaskView {
    const task = mustGet(id);
    if (isParentKind(task.kind)) {
      const children = store.children(id).filter((c) => toView(c).actions.includes(action));
      if (children.length === 0)
        throw new AppError(
          'permanent',
          `No proxy of this request can be ${action === 'retry' ? 'retried' : 'resumed'}.`,
          'Look at each proxy of the request for what it allows.',
        );
      for (const c of children) rerun(c.id, action);
      return toView(mustGet(id));
    }
    if (!toView(task).actions.includes(action)) {
      throw new AppError(
        'permanent',
        `This task cannot be ${action === 'retry' ? 'retried' : 'resumed'}: it is ${task.state}${task.closedBy ? ' and was cleaned up' : ''}.`,
        action === 'resume'
          ? 'Resume is for tasks cut off by a crash or a quit; use Retry for a failed one.'
          : 'Retry is for failed or cancelled tasks; use Resume for an interrupted one.',
      );
    }
    const next = store.update(id, {
      state: 'queued',
      steps: freshSteps(stepsOf[task.kind]),
      progress: 0,
      error: undefined,
      fixAt: undefined,
      address: undefined,
      message: undefined,
      startedAt: undefined,
      endedAt: undefined,
    });
    afterChange(next);
    schedule(id);
    return toView(next);
  }

  function cleanUpTask(id: string): { taskId: string } {
    const task = mustGet(id);
    const input = task.input;
    if (input.kind === 'build-template' && toView(task).actions.includes('clean-up')) {
      const job = newRecord('clean-up-build', task.clusterId, task.target, cleanUpBuildInput(task), task.node ? { node: task.node } : {});
      afterChange(store.update(id, { closedBy: job.id }));
      submit(job);
      return { taskId: job.id };
    }
    if (input.kind !== 'create-proxy' || !toView(task).actions.includes('clean-up')) {
      throw new AppError(
        'permanent',
        `There is nothing to clean up for this task: it is ${task.state}${task.closedBy ? ' and was already cleaned up' : ''}.`,
        'Clean up is for creates that failed, were cancelled or were cut off; delete a running proxy from the inventory.',
      );
    }
    const job = newRecord(
      'clean-up',
      task.clusterId,
      input.name,
      { kind: 'clean-up', ofTaskId: id, uid: input.uid, name: input.name, ...(task.vmid !== undefined ? { vmid: task.vmid } : {}) },
      task.node ? { node: task.node } : {},
    );
    const { sealedCloudInit: _dropped, ...kept } = input;
    afterChange(store.update(id, { closedBy: job.id, input: kept }));
    submit(job);
    return { taskId: job.id };
  }

  function startCleanSeeds(clusterId: string, seeds: SeedRef[], dryRun: boolean, graceMinutes: number): { taskId: string } {
    o.directory.get(clusterId);
    const target = `${seeds.length} seed${seeds.length === 1 ? '' : 's'}${dryRun ? ' (dry run)' : ''}`;
    const task = newRecord('clean-seeds', clusterId, target, { kind: 'clean-seeds', seeds, dryRun, graceMinutes });
    submit(task);
    return { taskId: task.id };
  }

  function startDoctor(clusterId: string): { taskId: string } {
    const cluster = o.directory.get(clusterId);
    const task = newRecord('doctor', clusterId, cluster.name, { kind: 'doctor' });
    submit(task);
    return { taskId: task.id };
  }

  async function readLog(id: string, upid: string, start: number, limit: number) {
    const task = mustGet(id);
    const entry = task.upids.find((u) => u.upid === upid);
    if (!entry)
      throw new AppError('not-found', 'This task started no Proxmox task with that id.', 'Pick a Proxmox task from the task’s steps.');
    const api = clusterOfTask(task).api;
    const { node } = { node: upid.split(':')[1] ?? entry.node };
    const [page, status] = await Promise.all([api.taskLog(node, upid, { start, limit }), api.taskStatus(node, upid)]);
    return { lines: page.lines, total: page.total, running: status.status === 'running' };
  }

  return {
    list: (): TaskView[] =>
      store
        .all()
        .map(toView)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    get: (id: string): TaskView => toView(mustGet(id)),
    /** What the tasks snapshot tells the user: journal lines kept aside, why tasks are refused (disk full, read-only), and the app's other data-folder notices. */
    notices: (): string[] => [...store.notices(), ...(o.notices?.() ?? [])],
    /** The template and machine type this app made the proxy with; undefined when this app did not make it (or forgot). */
    proxyOrigin: (clusterId: string, uid: string): ProxyOrigin | undefined => origins.get(`${clusterId}/${uid}`),
    createProxies,
    deleteProxies,
    power: powerProxies,
    powerOffer,
    cancel,
    retry: (id: string) => rerun(id, 'retry'),
    resume: (id: string) => rerun(id, 'resume'),
    cleanUp: cleanUpTask,
    cleanSeeds: startCleanSeeds,
    /** The template builds the journal knows for a cluster (read only; the Cleanup scan's half-built templates and images). */
    templateBuilds: (clusterId: string) =>
      store
        .all()
        .filter((t) => t.clusterId === clusterId && t.input.kind === 'build-template')
        .map((t) => {
          const input = t.input as Extract<TaskInput, { kind: 'build-template' }>;
          return {
            taskId: t.id,
            state: t.state,
            open: toView(t).actions.includes('clean-up'),
            buildId: input.request.buildId,
            node: input.request.node,
            ...(input.resume?.volid ? { volid: input.resume.volid } : {}),
            ...(input.resume?.downloadedByUs ? { downloadedByUs: true } : {}),
            ...(input.request.keepImage ? { keepImage: true } : {}),
          };
        }),
    runDoctor: startDoctor,
    /** Starts a task whose kind brings its own runner and input (a template build): journalled, then queued. */
    start(kind: TaskKind, clusterId: string, target: string, input: TaskInput, node?: string): { taskId: string } {
      o.directory.get(clusterId);
      const task = newRecord(kind, clusterId, target, input, node ? { node } : {});
      submit(task);
      return { taskId: task.id };
    },
    readLog,
    watchLog,
    /** Changes the limits live (Settings): running work keeps its slots; queued work is served under the new ones. */
    setLimits: (limits: Partial<Limits>): void => slots.setLimits(limits),
    /** The limits in force. */
    limits: (): Limits => slots.current(),
    /** The most copies that held a slot of each storage at once (tests, the bench). */
    peakClonesPerStorage: (): Record<string, number> => slots.peakClonesPerStorage(),
    names,
    journalPath: store.journalPath,
    /** Resolves once the task has ended (for tests and the shutdown path). */
    async wait(id: string): Promise<TaskView> {
      for (;;) {
        const pending =
          settled.get(id) ??
          stopping.get(id) ??
          [...settled.entries(), ...stopping.entries()].find(([k]) => store.get(k)?.parentId === id)?.[1];
        if (!pending) return toView(mustGet(id));
        await pending;
      }
    },
    /** Stops every running task's waiting; the journal keeps them for the next start, which lists them as interrupted. */
    async close(): Promise<void> {
      addressWatch?.close();
      for (const c of controllers.values()) c.abort();
      await Promise.allSettled([...settled.values()]);
      store.close();
    },
  };
}
