/**
 * The fault matrix as data: operation × fault → what the user must see.
 * The tests in this folder run every cell against the simulator, and
 * scripts/gen-reliability-table.ts renders docs/reliability.md from the same
 * rows, so the document cannot claim what the tests do not check.
 */
import { PVE_VERSIONS, type PveVersion } from '../../../main/simulator';
import type { TaskKind as TaskType } from '../../../main/simulator/types';

export const operations = ['create', 'delete', 'get', 'list', 'check', 'cleanup'] as const;
export type Operation = (typeof operations)[number];

export const faults = [
  { id: 'auth', label: '401 token refused' },
  { id: 'forbidden', label: '403 naming a privilege' },
  { id: 'unknown500', label: '500 with an unknown text' },
  { id: 'refused595', label: '595 node unreachable' },
  { id: 'timeout596', label: '596 node timed out' },
  { id: 'reset', label: 'connection reset mid-response' },
  { id: 'hang', label: 'no answer past the request timeout' },
  { id: 'oversize', label: 'answer over its size bound' },
  { id: 'taskError', label: 'task ends with an error' },
  { id: 'taskHang', label: 'task never ends' },
  { id: 'lockHeld', label: 'lock that never clears' },
  { id: 'vanish', label: 'VM vanishes between two calls' },
  { id: 'noSeedStorage', label: 'seed storage missing' },
  { id: 'nodeDown', label: 'node down' },
  { id: 'hostKilled', label: 'host process killed mid-step' },
  { id: 'diskFull', label: 'data folder full (disk full)' },
  { id: 'readOnly', label: 'data folder read-only' },
  { id: 'corruptJournal', label: 'corrupt task journal at start' },
] as const;
export type FaultId = (typeof faults)[number]['id'];

/** Faults of the app's own data folder, not of Proxmox: data-folder.test.ts runs them (on a real small disk). */
export const dataFolderFaults: ReadonlySet<FaultId> = new Set(['diskFull', 'readOnly', 'corruptJournal']);

/** The user-facing outcome of one cell. */
export type Expectation =
  /** The call fails with this class; `hint` must match the error's hint (what to do), and `message`, when given, its message. */
  | { outcome: 'error'; kind: 'permanent' | 'transient' | 'not-found' | 'invalid-input'; hint: RegExp; message?: RegExp }
  /** The check answers not-ready for the node with this reason; `hint` must match the health view's hint for it. */
  | {
      outcome: 'not-ready';
      reason: 'Unauthorized' | 'Forbidden' | 'APIError' | 'Unreachable' | 'Timeout' | 'StorageNotFound';
      hint: RegExp;
    }
  /** The call succeeds despite the fault; `note` says what it does about it. */
  | { outcome: 'ok'; note: string }
  /** The user cancels the task; the cancel message must match `hint`. */
  | { outcome: 'cancelled'; hint: RegExp }
  /** Covered elsewhere (the crash table) or not applicable: `why`. */
  | { outcome: 'elsewhere' | 'n/a'; why: string };

const TRY_AGAIN = /^Try again/;
const GRANT = /^Grant Sys\.Syslog on \/nodes\/pv1-1 to the token's user/;
const TOKEN = /token was refused: check the token id and secret/;
const PROFILE_FIELDS = /check the profile fields named in the message/;
const REFRESH = /refresh the view/i;
/** Issue 22: an answer over its route's bound (main/core/pve/answer-size.ts), refused in words. */
const OVERSIZE: Expectation = {
  outcome: 'error',
  kind: 'transient',
  message: /was larger than \d+ MiB; this is not what Proxmox sends/,
  hint: /^Check that the cluster URL points at a Proxmox VE node itself/,
};
const err = (kind: 'permanent' | 'transient' | 'not-found', hint: RegExp): Expectation => ({ outcome: 'error', kind, hint });
const notReady = (reason: Extract<Expectation, { outcome: 'not-ready' }>['reason'], hint: RegExp): Expectation => ({
  outcome: 'not-ready',
  reason,
  hint,
});
const na = (why: string): Expectation => ({ outcome: 'n/a', why });
const crashTable: Expectation = {
  outcome: 'elsewhere',
  why: 'Killed at every step in the crash table below, and Resume leaves a clean cluster; Clean up instead is checked after a kill at the start step only (test/integration/services/tasks/crash-resume.test.ts).',
};
const readsOnly = na('A read: it has no journalled steps, so nothing is left to resume; the next call simply asks again.');
const noTask = na('Starts no Proxmox task.');

const DISK_FULL = /could not record progress: disk full/;
const FREE_SPACE = /^Free space in .*tasks \(the disk it is on is full\), then try again\.$/;
const READ_ONLY = /could not record progress: the data folder is read-only/;
const MAKE_WRITABLE = /^Make .*tasks writable again/;
const diskFull: Expectation = { outcome: 'error', kind: 'transient', message: DISK_FULL, hint: FREE_SPACE };
const readOnly: Expectation = { outcome: 'error', kind: 'permanent', message: READ_ONLY, hint: MAKE_WRITABLE };
const corruptJournal: Expectation = {
  outcome: 'ok',
  note: 'The app starts; the unreadable lines are skipped, kept byte for byte in tasks.jsonl.corrupt and reported in the tasks list; every readable task is still listed.',
};
const readsNoDataFolder = (what: string): Expectation => ({
  outcome: 'ok',
  note: `A read: it writes nothing to the data folder, so it answers as usual (${what}).`,
});

/** Where each request fault is injected: the route the operation is most exposed on. */
export const injectedOn: Record<Operation, string> = {
  create: 'PUT /nodes/{node}/qemu/{vmid}/config (the configure step, after clone and seed upload)',
  delete: 'DELETE /nodes/{node}/qemu/{vmid} (the destroy step, after stop and seed delete)',
  get: 'GET /nodes/{node}/qemu/{vmid}/config',
  list: 'GET /cluster/resources',
  check: 'GET /nodes/{node}/status',
  cleanup: 'GET /cluster/resources (the scan)',
};

export const matrix: Record<Operation, Record<FaultId, Expectation>> = {
  create: {
    auth: err('permanent', TOKEN),
    forbidden: err('permanent', GRANT),
    unknown500: err('transient', TRY_AGAIN),
    refused595: err('transient', TRY_AGAIN),
    timeout596: err('transient', TRY_AGAIN),
    reset: err('transient', TRY_AGAIN),
    hang: err('transient', TRY_AGAIN),
    oversize: OVERSIZE,
    taskError: err('transient', TRY_AGAIN),
    taskHang: err('transient', TRY_AGAIN),
    lockHeld: err('transient', TRY_AGAIN),
    vanish: err('transient', TRY_AGAIN),
    noSeedStorage: err('permanent', PROFILE_FIELDS),
    nodeDown: err('transient', TRY_AGAIN),
    hostKilled: crashTable,
    diskFull,
    readOnly,
    corruptJournal,
  },
  delete: {
    auth: err('permanent', TOKEN),
    forbidden: err('permanent', GRANT),
    unknown500: err('transient', TRY_AGAIN),
    refused595: err('transient', TRY_AGAIN),
    timeout596: err('transient', TRY_AGAIN),
    reset: err('transient', TRY_AGAIN),
    hang: err('transient', TRY_AGAIN),
    oversize: OVERSIZE,
    taskError: err('transient', TRY_AGAIN),
    taskHang: err('transient', TRY_AGAIN),
    lockHeld: err('transient', TRY_AGAIN),
    vanish: { outcome: 'ok', note: 'The VM being gone is what delete was for: its seed is still deleted.' },
    noSeedStorage: err('permanent', PROFILE_FIELDS),
    nodeDown: err('transient', TRY_AGAIN),
    hostKilled: crashTable,
    diskFull,
    readOnly,
    corruptJournal,
  },
  get: {
    auth: err('permanent', TOKEN),
    forbidden: err('permanent', GRANT),
    unknown500: err('transient', TRY_AGAIN),
    refused595: err('transient', TRY_AGAIN),
    timeout596: err('transient', TRY_AGAIN),
    reset: err('transient', TRY_AGAIN),
    hang: err('transient', TRY_AGAIN),
    oversize: OVERSIZE,
    taskError: noTask,
    taskHang: noTask,
    lockHeld: err('transient', TRY_AGAIN),
    vanish: err('not-found', REFRESH),
    noSeedStorage: na('Reads no storage.'),
    nodeDown: err('transient', TRY_AGAIN),
    hostKilled: readsOnly,
    diskFull: readsNoDataFolder('the proxy view'),
    readOnly: readsNoDataFolder('the proxy view'),
    corruptJournal: readsNoDataFolder('the proxy view'),
  },
  list: {
    auth: err('permanent', TOKEN),
    forbidden: err('permanent', GRANT),
    unknown500: err('transient', TRY_AGAIN),
    refused595: err('transient', TRY_AGAIN),
    timeout596: err('transient', TRY_AGAIN),
    reset: err('transient', TRY_AGAIN),
    hang: err('transient', TRY_AGAIN),
    oversize: OVERSIZE,
    taskError: noTask,
    taskHang: noTask,
    lockHeld: { outcome: 'ok', note: 'A lock does not hide a VM: it is still listed.' },
    vanish: { outcome: 'ok', note: 'The vanished VM is skipped; the others are listed.' },
    noSeedStorage: na('Reads no storage.'),
    nodeDown: { outcome: 'ok', note: "The node's VMs cannot be read and are skipped; the listing itself answers." },
    hostKilled: readsOnly,
    diskFull: readsNoDataFolder('the inventory'),
    readOnly: readsNoDataFolder('the inventory'),
    corruptJournal: readsNoDataFolder('the inventory'),
  },
  check: {
    auth: notReady('Unauthorized', /token was refused/),
    forbidden: notReady('Forbidden', /lacks a privilege/),
    unknown500: notReady('APIError', /Read the message/),
    refused595: notReady('Unreachable', /cannot be reached/),
    timeout596: notReady('Unreachable', /cannot be reached/),
    reset: notReady('Unreachable', /cannot be reached/),
    hang: notReady('Timeout', /did not answer in time/),
    oversize: notReady('APIError', /Read the message/),
    taskError: noTask,
    taskHang: noTask,
    lockHeld: na('Reads no VM config, so no lock is in its way.'),
    vanish: na('Reads each thing once: nothing to vanish between two calls.'),
    noSeedStorage: notReady('StorageNotFound', /seed storage is missing/),
    nodeDown: notReady('Unreachable', /cannot be reached/),
    hostKilled: readsOnly,
    diskFull: readsNoDataFolder('the health view'),
    readOnly: readsNoDataFolder('the health view'),
    corruptJournal: readsNoDataFolder('the health view'),
  },
  cleanup: {
    auth: err('permanent', TOKEN),
    forbidden: err('permanent', GRANT),
    unknown500: err('transient', TRY_AGAIN),
    refused595: err('transient', TRY_AGAIN),
    timeout596: err('transient', TRY_AGAIN),
    reset: err('transient', TRY_AGAIN),
    hang: err('transient', TRY_AGAIN),
    oversize: OVERSIZE,
    taskError: err('transient', /task log/),
    // Cancel stops the seed's delete on its node (DELETE on the task) and says so.
    taskHang: {
      outcome: 'cancelled',
      hint: /^Cancelled\. Stopped the Proxmox task imgdel on node pv1-1: it ended with “received interrupt”\.$/,
    },
    lockHeld: { outcome: 'ok', note: 'A lock on a VM does not stop the scan or the delete of an unused seed.' },
    vanish: { outcome: 'ok', note: 'The VM whose config cannot be read keeps the seeds on its node; nothing is deleted on a guess.' },
    noSeedStorage: { outcome: 'ok', note: 'The scan answers and names the node whose seeds could not be listed.' },
    nodeDown: { outcome: 'ok', note: 'The scan answers and names the node whose seeds could not be listed.' },
    hostKilled: na('The seed delete re-checks each seed under its name lock before deleting it; a rerun scans again.'),
    diskFull,
    readOnly,
    corruptJournal,
  },
};

// ---- Issue 16: the day-two operations, run as the user starts them: as tasks (tasks.power, tasks.migrate, …). ----

export const dayTwoOperations = ['start', 'shutdown', 'stop', 'reboot', 'migrate', 'reconfigure', 'recreate'] as const;

/** Where each request fault is injected: the request that changes the VM. */
export const dayTwoInjectedOn: Record<DayTwoOperation, string> = {
  start: 'POST /nodes/{node}/qemu/{vmid}/status/start',
  shutdown: 'POST /nodes/{node}/qemu/{vmid}/status/shutdown',
  stop: 'POST /nodes/{node}/qemu/{vmid}/status/stop',
  reboot: 'POST /nodes/{node}/qemu/{vmid}/status/reboot',
  migrate: 'POST /nodes/{node}/qemu/{vmid}/migrate (after the seed copy and detach)',
  reconfigure: 'PUT /nodes/{node}/qemu/{vmid}/config (the configure step: cores and memory)',
  recreate: 'PUT /nodes/{node}/qemu/{vmid}/config (the create half, after the old VM is deleted)',
};

/** The Proxmox task each operation waits on, where the task faults strike. */
export const dayTwoTaskType: Record<DayTwoOperation, TaskType> = {
  start: 'qmstart',
  shutdown: 'qmshutdown',
  stop: 'qmstop',
  reboot: 'qmreboot',
  migrate: 'qmigrate',
  reconfigure: 'qmreboot',
  recreate: 'qmstart',
};

const dayTwoCrash: Expectation = {
  outcome: 'elsewhere',
  why: 'Killed at every step in the day-two crash table below; Resume converges (test/integration/faults/crash-day-two.test.ts).',
};
const journalLikeCreate = (why: string): Expectation => ({ outcome: 'elsewhere', why });
const SAME_JOURNAL =
  "The task is journalled by the same store as create's and delete's (task-store.ts: fsync before each step's request), whose disk-full, read-only and corrupt-journal cells run in data-folder.test.ts; not run again per kind.";
const LOCKED = /^Wait for the \w+ task on VM \d+/;
const PICK_AGAIN = /^Refresh the inventory and pick the proxies again/;

/** The cells every day-two operation shares; each row below overrides what differs. */
function dayTwoRow(overrides: Partial<Record<FaultId, Expectation>>): Record<FaultId, Expectation> {
  return {
    auth: err('permanent', TOKEN),
    forbidden: err('permanent', GRANT),
    unknown500: err('transient', TRY_AGAIN),
    refused595: err('transient', TRY_AGAIN),
    timeout596: err('transient', TRY_AGAIN),
    reset: err('transient', TRY_AGAIN),
    hang: err('transient', TRY_AGAIN),
    oversize: OVERSIZE,
    taskError: err('transient', TRY_AGAIN),
    taskHang: err('transient', TRY_AGAIN),
    lockHeld: err('transient', LOCKED),
    vanish: err('not-found', REFRESH),
    noSeedStorage: na('Reads and writes no storage.'),
    nodeDown: err('transient', TRY_AGAIN),
    hostKilled: dayTwoCrash,
    diskFull: journalLikeCreate(SAME_JOURNAL),
    readOnly: journalLikeCreate(SAME_JOURNAL),
    corruptJournal: journalLikeCreate(SAME_JOURNAL),
    ...overrides,
  };
}

/**
 * A hung task the operation would wait on for long (a shutdown's or reboot's own timeout) or that holds the VM's lock
 * (qmigrate): the user cancels, and the cancel stops it on its node (DELETE on the task) and says so.
 */
const cancelHung = (type: string): Expectation => ({
  outcome: 'cancelled',
  hint: new RegExp(`^Cancelled\\. Stopped the Proxmox task ${type} on node pv1-1: it ended with “received interrupt”\\.`),
});

/** A power action on a locked VM is refused when it is asked for (shared/domain/power-actions.ts), before any task. */
const powerLocked: Expectation = { outcome: 'error', kind: 'invalid-input', hint: PICK_AGAIN, message: /locked \(backup\)/ };

export const dayTwoMatrix: Record<DayTwoOperation, Record<FaultId, Expectation>> = {
  start: dayTwoRow({ lockHeld: powerLocked }),
  shutdown: dayTwoRow({ lockHeld: powerLocked, taskHang: cancelHung('qmshutdown') }),
  stop: dayTwoRow({ lockHeld: powerLocked }),
  reboot: dayTwoRow({ lockHeld: powerLocked, taskHang: cancelHung('qmreboot') }),
  migrate: dayTwoRow({ noSeedStorage: err('permanent', PROFILE_FIELDS), taskHang: cancelHung('qmigrate') }),
  reconfigure: dayTwoRow({ noSeedStorage: err('permanent', PROFILE_FIELDS), taskHang: cancelHung('qmreboot') }),
  recreate: dayTwoRow({
    noSeedStorage: err('permanent', PROFILE_FIELDS),
    // The delete half meets the lock first (delete.ts), in delete's words.
    lockHeld: err('transient', TRY_AGAIN),
    vanish: { outcome: 'ok', note: 'The old VM being gone is what the delete half was for: the new one is created.' },
  }),
};

/** Where and when each data-folder fault strikes. */
export const dataFolderSite: Record<'diskFull' | 'readOnly' | 'corruptJournal', string> = {
  diskFull:
    'the disk holding the journal fills up as the request goes out: the seed upload (create), the seed delete (delete); for cleanup it is full before the seed delete is asked for',
  readOnly: 'the data folder is read-only when the app starts (remounted read-only between two runs of the task manager)',
  corruptJournal:
    'before the app starts, the journal gets the lines `null`, `12345`, `"x"`, a running task without steps, and random bytes, beside a finished task',
};

/**
 * The steps the crash table kills the host at. Not create's `wait-running`: after a start task that ended OK it sends
 * nothing (issue 11, provision.ts: the task's end is QEMU running the guest), so there is no request to be killed in;
 * a kill after the start is the `start` row's Resume (it adopts the running VM).
 */
export const crashSteps = {
  create: ['clone', 'upload-seed', 'configure', 'resize', 'start'],
  delete: ['stop', 'delete-seed', 'destroy'],
} as const;

/**
 * Issue 16: the steps of each day-two operation the crash table kills the host at (every step that sends a request
 * changing something; `lookup` only reads). crash-day-two.test.ts runs them.
 */
export const dayTwoCrashSteps = {
  start: ['start', 'wait-running'],
  shutdown: ['shutdown'],
  stop: ['stop'],
  reboot: ['reboot', 'wait-running'],
  migrate: ['copy-seed', 'detach-seed', 'migrate', 'attach-seed', 'delete-source-seed'],
  reconfigure: ['configure', 'resize', 'stage-seed', 'replace-seed', 'reboot', 'wait-running'],
  // Its second half is create's: no `wait-running` row (see crashSteps).
  recreate: ['stop', 'delete-seed', 'destroy', 'clone', 'upload-seed', 'configure', 'resize', 'start'],
} as const;
export type DayTwoOperation = keyof typeof dayTwoCrashSteps;

/**
 * Issue 24: a credentials rotate's steps (runners/rotate-credentials.ts), each killed in the crash table
 * (crash-rotate.test.ts). Its address step waits on the inventory, which the crash host has not: it is skipped there.
 * Its request and task faults are reconfigure's (the same core operation sends the same requests).
 */
export const rotateCrashSteps = ['stage-seed', 'replace-seed', 'reboot', 'wait-running', 'check with the new credentials'] as const;
export const rotateAfterResume =
  "the new credentials current, the old forgotten: the proxy (its guest's seed) refuses the old and takes the new; the new seed under its own name, no staged copy left; the VM running; no password in the journal";

/** What Resume must leave after a kill at any step of each day-two operation (the crash table's last column). */
export const dayTwoAfterResume: Record<DayTwoOperation, string> = {
  start: 'the VM running, one start sent in all',
  shutdown: 'the VM stopped',
  stop: 'the VM stopped',
  reboot: 'the VM running',
  migrate: 'the VM on the target with its seed there, no seed copy left on the source, the seed copied once',
  reconfigure: 'the new cores, memory and disk; the new seed under its own name, no staged copy left; the VM running',
  recreate: 'one running VM with the name, a new UID, its seed; the old VM gone',
};

/**
 * Every runnable cell (request faults, the crash table, the data folder) runs on each Proxmox VE version profile of the
 * simulator (main/simulator/versions.ts). The verdicts are the same on all three: the table is the one of `tableVersion`,
 * the captured host's release.
 */
export const matrixVersions = PVE_VERSIONS;
export const tableVersion: PveVersion = '9.2';

/**
 * Where a version makes cells take another path than on 9.2, with the same verdict, and why; the tests assert each path
 * (suite.ts `assertVersionPath`, crash-steps.test.ts). None changes how a cell is armed: the task faults strike qmstart,
 * qmdestroy, qmstop and imgdel, and the request faults the routes in `injectedOn`, which every version has.
 */
export const versionDifferences: Record<PveVersion, readonly { cells: string; why: string }[]> = {
  '7.4': [
    {
      cells: "create's request-fault cells (each retry grows the disk) and the crash table's create rows",
      why: 'the disk grow is no `qmresize` task: qemu-server before 8.0.2 grows the disk inside the request and answers `{"data":null}`; the tests assert the disk grown to 8G and no resize task. Killed at resize, the host dies while that request is held (there is no task to be inside); the held request lands and grows the disk, and Resume finds it grown.',
    },
    {
      cells: "check's cells",
      why: 'node status has no `current-kernel` (pve-manager 8.1.0) and no `memory.available`: the kernel is read from `kversion`; after each retry the check asserts the node reports 7.4-19 and its kernel.',
    },
    {
      cells: "the day-two crash table's reconfigure and recreate rows at resize",
      why: 'as for create: the disk grows inside the request, so the host dies while that request is held; Resume finds the disk grown (reconfigure skips the resize, recreate adopts its VM).',
    },
  ],
  '8.4': [
    {
      cells: "check's cells",
      why: 'node status has no `memory.available` (pve-manager 9.0); after each retry the check asserts the node reports 8.4.21.',
    },
  ],
  '9.2': [],
};

// ---- Issue 22: the data folder as the app finds it when it starts, on each path it starts by. ----

export const startPaths = ['app', 'browserHost'] as const;
export type StartPath = (typeof startPaths)[number];

export const startPathLabel: Record<StartPath, string> = {
  app: 'the app (app/compose.ts, what the desktop shell and browser mode both start)',
  browserHost: 'browser mode as a process (main/host/cli.ts, what `npm run start:web` runs)',
};

export const startFaults = [
  { id: 'historyLocked', label: 'a locked history file at start' },
  { id: 'readOnlyAtStart', label: 'a read-only data folder at start' },
] as const;
export type StartFaultId = (typeof startFaults)[number]['id'];

/** Where and when each start fault strikes. */
export const startFaultSite: Record<StartFaultId, string> = {
  historyLocked:
    'another connection holds `history.sqlite` in exclusive locking mode inside `BEGIN EXCLUSIVE` (nothing else can even read it) from before the start until the test lets go',
  readOnlyAtStart:
    'the data folder an earlier run wrote (profiles, settings, a webhook target, the task journal, history, the port and run key) is on a tmpfs remounted read-only before the start (where it cannot be mounted, the cell is skipped and says why)',
};

export const startMatrix: Record<StartPath, Record<StartFaultId, Expectation>> = {
  app: {
    historyLocked: {
      outcome: 'ok',
      note: '`history.status` says history is in memory, why, and that the file is tried again (`reopening`); once it frees, it names the file, and after a restart the checks recorded meanwhile are in it.',
    },
    readOnlyAtStart: {
      outcome: 'ok',
      note: 'Starts with the saved clusters; `history.status` says history is in memory because the folder is on a read-only disk; saving settings, a cluster or a webhook target is refused as **permanent** in words (`is on a read-only disk`), the tasks list says tasks are refused; once writable, the same save lands.',
    },
  },
  browserHost: {
    historyLocked: {
      outcome: 'ok',
      note: 'Prints its URL and serves; `history.status` over the socket says in memory and `reopening`, then names the file once it frees.',
    },
    readOnlyAtStart: {
      outcome: 'ok',
      note: 'Prints its URL (with the run key it kept) and that the port and run key are not kept for the next run because the folder is on a read-only disk; over the socket, as for the app: the saved clusters, history in memory, saves refused as **permanent** in words, and landing once writable.',
    },
  },
};
