/**
 * The task manager: every admin action runs here as a task with steps,
 * progress, the Proxmox tasks it started and their logs, under bounded
 * concurrency (globally and per node), journalled so a crash leaves it
 * listed as interrupted with Resume and Clean up.
 *
 * This file only joins the parts, a folder per concern: records/ (the
 * record, its journal and replay, its view and offers), queue/ (the queue,
 * its slots and limits, the clone gate, cancel), runners/ (one file per
 * kind, and the registry task-kinds.ts), requests/ (each channel's request:
 * create, delete, power, migrate, reconfigure, recreate, rotate) and read-models/
 * (the inventory's proxy origins, Cleanup's template builds); beside it
 * Resume, Retry and Clean up (follow-ups.ts), what follows a change
 * (task-events.ts), a create's address (address-step.ts), the live logs
 * (log-watch.ts), and the parts' shared pieces with the one way a task
 * starts (manager-parts.ts).
 *
 * It builds each part with its options, gives each run its context, and
 * lists the manager's methods, each handed to the part that does the work.
 * Long because the options every part takes and the methods every channel
 * calls are listed here, one line each, so the joins are read in one place.
 */
import type { RecreateInput, SeedRef, TaskKind, TaskView } from '../../../shared/channels/tasks';
import { KeyedLock, type ProgressEvent } from '../../core';
import type { Logger } from '../../log/logger';
import type { ClusterDirectory } from '../clusters/cluster';
import { DEFAULT_ADDRESS_WAIT_MS, type AddressFeed } from './address-watch';
import { abortablePause, addressFromFeed, type RotateDeps } from './runners/rotate-credentials';
import { createAddressStep } from './address-step';
import type { TemplateBuildDeps } from './runners/build-template';
import { createCanceller } from './queue/cancel';
import { createCloneGates } from './queue/clone-gate';
import { createProxiesRequest } from './requests/create-request';
import { dayTwoRequests } from './requests/day-two-requests';
import { deleteProxiesRequest } from './requests/delete-request';
import type { DoctorRun } from './runners/doctor';
import { createFollowUps } from './follow-ups';
import { createLogWatch } from './log-watch';
import { createManagerParts, startTask } from './manager-parts';
import { silentNotifier, type Notifier } from '../../ports/notifier';
import { powerRequests } from './requests/power-request';
import { rotateRequest } from './requests/rotate-request';
import { releaseRequests } from './requests/release-request';
import { proxyOrigins } from './read-models/proxy-origins';
import { ProxyRecords, type ProxyOrigin } from './records/proxy-records';
import type { NameGuard, RunContext } from './runners/run-context';
import { createFileKeySealer, type Sealer } from './sealer';
import type { ProxyCredentialStore } from '../proxy-credentials/store';
import { defaultLimits, Slots, type Limits } from './queue/slots';
import { applyProgress } from './records/steps';
import { createTaskEvents } from './task-events';
import { taskKinds } from './runners/task-kinds';
import { createTaskQueue } from './queue/task-queue';
import { holdsItsName, nameOf, type TaskInput, type TaskRecord } from './records/task-record';
import { templateBuildsOf } from './read-models/template-builds';
import { toView } from './records/task-view';
import { TaskStore } from './records/task-store';

export type { ProxyOrigin } from './records/proxy-records';

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
  /** The template builder's catalogue and budgets (runners/build-template.ts). */
  templateBuild?: TemplateBuildDeps;
  sealer?: Sealer;
  /**
   * Issue 24: the proxies' credentials. A user-data's credential placeholders are filled from it when a run opens the
   * text (the journal keeps the placeholders, never the password); a delete's or recreate's old VM loses its own.
   */
  credentials?: ProxyCredentialStore;
  /**
   * Issue 24: the app's own proxy check with given credentials (Test's), for a credentials rotate's last step; with
   * `credentials`, it makes rotates possible. `rotateVerifyMs`: how long that check may keep failing after the
   * reboot (default 5 min); `rotateRetryMs`: between two checks (default 5 s).
   */
  rotateCheck?: RotateDeps['check'];
  rotateVerifyMs?: number;
  rotateRetryMs?: number;
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
  const store = new TaskStore({
    dir: o.journalDir,
    log,
    historyLimit: o.historyLimit ?? 500,
    throttleMs: o.updateThrottleMs ?? 250,
    now,
    publish: (payload) => publish({ name: 'tasks.update', payload }),
  });

  // Which proxies this app made, and the seed each last got (proxy-records.ts); the inventory reads the origins.
  const records = new ProxyRecords({ dir: o.journalDir, logger: log });
  const origins = proxyOrigins(records, store.all());
  const kinds = taskKinds({
    runDoctor: o.runDoctor,
    templateBuild: o.templateBuild,
    waitsForAddress: o.addresses !== undefined,
    records,
    rotate:
      o.credentials && o.rotateCheck
        ? {
            records,
            open: (sealed) => sealer.open(sealed),
            credentials: o.credentials,
            ...(o.addresses ? { address: addressFromFeed(o.addresses, o.addressWaitMs ?? DEFAULT_ADDRESS_WAIT_MS) } : {}),
            check: o.rotateCheck,
            verifyWithinMs: o.rotateVerifyMs ?? 5 * 60_000,
            retryMs: o.rotateRetryMs ?? 5000,
            pause: abortablePause,
          }
        : undefined,
  });

  const names: NameGuard = {
    busy: (clusterId, name, exceptId) =>
      store.all().find((t) => t.id !== exceptId && t.clusterId === clusterId && holdsItsName(t) && nameOf(t) === name),
    lock: (clusterId, name, signal) => locks.acquire(`${clusterId}/${name}`, signal),
  };

  const events = createTaskEvents({
    store,
    notifier,
    now,
    notifyAfterMs: o.notifyAfterMs ?? 10_000,
    onOperationFinished: o.onOperationFinished,
  });
  const parts = createManagerParts({
    store,
    directory: o.directory,
    log,
    now,
    names,
    stepsOf: (kind) => kinds[kind].steps,
    submit: (task) => queue.submit(task),
    schedule: (id) => queue.schedule(id),
    afterChange: events.afterChange,
    finish: events.finish,
  });

  const address = createAddressStep({ parts, notifier, feed: o.addresses, waitMs: o.addressWaitMs });
  const logs = createLogWatch({
    parts,
    publish: (payload) => publish({ name: 'tasks.log', payload }),
    intervalMs: o.logFollowMs ?? 1000,
    runningSignal: (id) => queue.signalOf(id),
  });

  function contextFor(task: TaskRecord, signal: AbortSignal): RunContext {
    const update = (fields: Partial<TaskRecord>) => {
      if (!signal.aborted) events.afterChange(store.update(task.id, fields));
    };
    return {
      task,
      current: () => parts.mustGet(task.id),
      cluster: parts.clusterOf(task),
      signal,
      names,
      log,
      update,
      onProgress: (e: ProgressEvent) => {
        // Journalled (fsync'd) here, before the core sends the step's request.
        update(applyProgress(parts.mustGet(task.id), e));
        if (e.phase === 'task' && e.upid) logs.follow(task.id, e.upid, signal);
      },
      cloneGate: cloneGateFor(task.clusterId),
      openCloudInit: async () => {
        const input = parts.mustGet(task.id).input;
        if (!('sealedCloudInit' in input) || input.sealedCloudInit === undefined) throw new Error('no sealed cloud-init');
        const text = await sealer.open(input.sealedCloudInit);
        if (!o.credentials) return text;
        // The VM the seed is for: a recreate's new one.
        const uid = input.kind === 'recreate-proxy' ? input.newUid : input.uid;
        // A create's or a recreate's seed is for a VM being made: credentials lost with a session are made again.
        const newVm = input.kind === 'create-proxy' || input.kind === 'recreate-proxy';
        return o.credentials.fill(task.clusterId, uid, input.name, text, newVm);
      },
      credentials: o.credentials && {
        forget: (uid) => o.credentials!.forget(task.clusterId, uid),
        noteVmid: (uid, vmid) => o.credentials!.noteVmid(task.clusterId, uid, vmid),
      },
    };
  }

  const queue = createTaskQueue({ parts, kinds, slots, notifier, contextFor, succeeded: address.succeeded });
  const cancel = createCanceller({ parts, abort: queue.abort, trackStopping: queue.trackStopping, stopBudgetMs: o.stopBudgetMs });
  const followUps = createFollowUps(parts, (kind) => kinds[kind].steps);
  const powers = powerRequests(parts, records);
  const releases = releaseRequests(parts, records);
  const dayTwo = dayTwoRequests({ parts, sealer, records, rotating: o.credentials && ((c, uid) => o.credentials!.hasPending(c, uid)) });

  return {
    list: (): TaskView[] =>
      store
        .all()
        .map(toView)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    get: (id: string): TaskView => toView(parts.mustGet(id)),
    /** What the tasks snapshot tells the user: journal lines kept aside, why tasks are refused (disk full, read-only), and the app's other data-folder notices. */
    notices: (): string[] => [...store.notices(), ...(o.notices?.() ?? [])],
    /** The template and machine type this app made the proxy with; undefined when this app did not make it (or forgot). */
    proxyOrigin: (clusterId: string, uid: string): ProxyOrigin | undefined => origins.of(clusterId, uid),
    /** The protocol and port the seed this app wrote makes the proxy listen on (issue 23 item 5); undefined when unknown. */
    proxyEndpoint: (clusterId: string, uid: string) => records.endpoint(clusterId, uid),
    /** Issue 26: what the app made the proxy with and last wrote to its seed, user-data opened (placeholders unfilled); undefined: not made here. */
    async keptSeed(clusterId: string, uid: string) {
      const origin = origins.of(clusterId, uid);
      if (!origin) return undefined;
      const sealedText = records.sealedUserData(clusterId, uid);
      const userData = sealedText === undefined ? undefined : await sealer.open(sealedText);
      return { ...origin, userData, endpoint: records.endpoint(clusterId, uid), network: records.network(clusterId, uid) };
    },
    createProxies: createProxiesRequest(parts, sealer, origins.note),
    deleteProxies: deleteProxiesRequest(parts, records),
    power: powers.power,
    /** Issue 26: release for the Kubernetes operator's adoption, and its undo. */
    release: releases.release,
    reclaim: releases.reclaim,
    /** Issue 26: the app's UID of a VM it released (the mark's uid is empty now), for the inventory. */
    releasedAs: (clusterId: string, vmid: number, name: string) => records.releasedAs(clusterId, vmid, name),
    powerOffer: (id: string, offer: 'stop-it' | 'wait-longer') => powers.powerOffer(id, offer, followUps.rerun),
    migrate: dayTwo.migrate,
    reconfigure: dayTwo.reconfigure,
    /** Issue 24: a proxy's credentials rotated in place (a new seed, a reboot, a check with the new ones). */
    rotateCredentials: rotateRequest({ parts, sealer, records, credentials: o.credentials }),
    /** A recreate's new UID is this app's from the start: the inventory knows the new VM as made here. */
    async recreate(input: RecreateInput): Promise<{ parentId?: string; taskIds: string[] }> {
      const started = await dayTwo.recreate(input);
      origins.note(started.taskIds.map((id) => parts.mustGet(id)));
      return started;
    },
    cancel,
    retry: followUps.retry,
    resume: followUps.resume,
    cleanUp: followUps.cleanUp,
    cleanSeeds(clusterId: string, seeds: SeedRef[], dryRun: boolean, graceMinutes: number): { taskId: string } {
      const target = `${seeds.length} seed${seeds.length === 1 ? '' : 's'}${dryRun ? ' (dry run)' : ''}`;
      return startTask(parts, 'clean-seeds', clusterId, target, { kind: 'clean-seeds', seeds, dryRun, graceMinutes });
    },
    /** The template builds the journal knows for a cluster (read only; the Cleanup scan's half-built templates and images). */
    templateBuilds: (clusterId: string) => templateBuildsOf(store.all(), clusterId),
    runDoctor(clusterId: string): { taskId: string } {
      return startTask(parts, 'doctor', clusterId, o.directory.get(clusterId).name, { kind: 'doctor' });
    },
    /** Starts a task whose kind brings its own runner and input (a template build): journalled, then queued. */
    start(kind: TaskKind, clusterId: string, target: string, input: TaskInput, node?: string): { taskId: string } {
      return startTask(parts, kind, clusterId, target, input, node ? { node } : {});
    },
    readLog: logs.readLog,
    watchLog: logs.watchLog,
    /** Changes the limits live (Settings): running work keeps its slots; queued work is served under the new ones. */
    setLimits: (limits: Partial<Limits>): void => slots.setLimits(limits),
    /** The limits in force. */
    limits: (): Limits => slots.current(),
    /** The most copies that held a slot of each storage at once (tests, the bench). */
    peakClonesPerStorage: (): Record<string, number> => slots.peakClonesPerStorage(),
    names,
    journalPath: store.journalPath,
    /** Resolves once the task has ended (for tests and the shutdown path). */
    wait: queue.wait,
    /** Stops every running task's waiting; the journal keeps them for the next start, which lists them as interrupted. */
    async close(): Promise<void> {
      address.close();
      await queue.close();
      store.close();
    },
  };
}
