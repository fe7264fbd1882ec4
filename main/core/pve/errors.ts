/**
 * ApiError, the matchers on Proxmox's answers, and the classification of
 * spec entry 13. Every text matched here is backed by a fixture, and the
 * tests take the texts from there; this is the one place they are written.
 */
import { redactSecrets } from '../../log/secrets';
import { ClassifiedError, type CallSite, type FailureClass } from './failures';

export * from './failures';

/** A non-2xx answer from Proxmox. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** The 400 answer's per-parameter map, e.g. `{storage: 'No such storage.'}`. */
  readonly errors: Record<string, string> | undefined;
  readonly method: string;
  /** The request path without its query. */
  readonly path: string;

  /** `message`: the body's message without its trailing newline, else the reason phrase (F1). */
  constructor(init: { status: number; message: string; errors?: Record<string, string>; call: CallSite }) {
    super(redactSecrets(init.message));
    this.status = init.status;
    this.errors = init.errors ? Object.fromEntries(Object.entries(init.errors).map(([k, v]) => [k, redactSecrets(v)])) : undefined;
    this.method = init.call.method;
    this.path = init.call.path;
  }

  /** One line a user can act on: the call, the status, the message and any field errors. */
  describe(): string {
    const fields = this.errors ? Object.entries(this.errors).map(([k, v]) => `${k}: ${v}`) : [];
    const tail = fields.length > 0 ? ` (${fields.join('; ')})` : '';
    return `${this.method} ${this.path}: ${this.status} ${this.message}${tail}`;
  }

  override toString(): string {
    return `${this.name}: ${this.describe()}`;
  }

  toJSON(): Record<string, unknown> {
    return { name: this.name, status: this.status, message: this.message, errors: this.errors, method: this.method, path: this.path };
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

function apiError(err: unknown, status: number): ApiError | undefined {
  return err instanceof ApiError && err.status === status ? err : undefined;
}

// --- Matchers (spec entry 13: fixed strings anchored to the status) -------

/** 500 `Configuration file 'nodes/<node>/qemu-server/<vmid>.conf' does not exist` (F2). */
export function isConfigMissing(err: unknown): boolean {
  const e = apiError(err, 500);
  return !!e && /^Configuration file '[^']*' does not exist$/.test(e.message);
}

/** 500 `unable to create VM <vmid>: config file already exists` (F4): the VMID is taken. */
export function isConfigAlreadyExists(err: unknown): boolean {
  const e = apiError(err, 500);
  return !!e && /^unable to create VM \d+: config file already exists$/.test(e.message);
}

/** 400 with the field error `storage: No such storage.`, whole (Phase 10); not any storage error (F15 has another). */
export function isNoSuchStorage(err: unknown): boolean {
  return apiError(err, 400)?.errors?.storage === 'No such storage.';
}

/**
 * Issue 25: a clone (or a migrate) Proxmox refuses for where its disks are, answered at once (HTTP 500, before any worker):
 * qemu-server src/PVE/API2/Qemu.pm clone_vm, $load_and_check: `can't clone VM to node '<target>' (VM uses local
 * storage)` (a disk or CD-ROM of the source on a non-shared storage) and `can't clone to non-shared storage
 * '<storage>'` (a target with a storage that is not shared); pve-storage src/PVE/Storage.pm storage_check_node:
 * `storage '<id>' is not available on node '<node>'`. No retry changes where the disks are: permanent.
 */
export function storagePlacementRefusal(err: unknown): 'local-storage' | 'non-shared-storage' | 'storage-not-on-node' | undefined {
  const e = apiError(err, 500);
  if (!e) return undefined;
  if (/^can't clone VM to node '[^']+' \(VM uses local storage\)$/.test(e.message)) return 'local-storage';
  if (/^can't clone to non-shared storage '[^']+'$/.test(e.message)) return 'non-shared-storage';
  if (/^storage '[^']+' is not available on node '[^']+'$/.test(e.message)) return 'storage-not-on-node';
  return undefined;
}

/** What to do about a clone or migrate refused for its storage (storagePlacementRefusal): the ways out, in words. */
export const STORAGE_PLACEMENT_HINTS: Record<NonNullable<ReturnType<typeof storagePlacementRefusal>>, string> = {
  'local-storage':
    "The template's disks are on a storage only its own node has: create on the template's node (placement then migrates), or move the template's disks to a shared storage, or make a copy of the template on this node.",
  'non-shared-storage':
    "A clone onto another node needs a shared storage: set the profile's storage to a shared one (NFS, Ceph…), or create on the template's node and migrate the VM afterwards.",
  'storage-not-on-node':
    "Pick a storage that this node has (Datacenter → Storage → Nodes in the Proxmox UI), or create on a node that has it.",
};

/** 500 `QEMU guest agent is not running` (F5): enabled, not (yet) answering. */
export function isAgentNotRunning(err: unknown): boolean {
  return apiError(err, 500)?.message === 'QEMU guest agent is not running';
}

/** 500 `No QEMU guest agent configured` (F5): `agent` is off in the config. */
export function isAgentNotConfigured(err: unknown): boolean {
  return apiError(err, 500)?.message === 'No QEMU guest agent configured';
}

/** 500 `VM <vmid> is not running` (F5), whole: its tail is a suffix of the agent-not-running text. */
export function isVmNotRunning(err: unknown): boolean {
  const e = apiError(err, 500);
  return !!e && /^VM \d+ is not running$/.test(e.message);
}

/** The lock named by a 500 `VM is locked (<lock>)` (F7), else undefined. */
export function lockOf(err: unknown): string | undefined {
  const e = apiError(err, 500);
  return e ? /^VM is locked \(([^)]+)\)$/.exec(e.message)?.[1] : undefined;
}

/** The path and privilege a 403 `Permission check failed (<path>, <privilege>)` names (F13, F17). */
export function missingPrivilege(err: unknown): { path: string; privilege: string } | undefined {
  const e = apiError(err, 403);
  const m = e ? /^Permission check failed \(([^,]+), ([^)]+)\)$/.exec(e.message) : null;
  return m ? { path: m[1]!, privilege: m[2]! } : undefined;
}

/** A 401: the token id or secret is wrong (`Authentication failed!`) or none was sent (`No ticket`) (F22). */
export function isAuthenticationFailure(err: unknown): boolean {
  return apiError(err, 401) !== undefined;
}

// --- Classification (spec entry 13) ---------------------------------------

/**
 * The class of a failure of operation `op`. `op === 'create'` turns a
 * missing config into transient (the VM being created is not there yet).
 */
export function classifyApiFailure(op: string, err: unknown): FailureClass {
  if (err instanceof ClassifiedError) return err.failureClass;
  if (err instanceof ApiError) return classifyAnswer(op, err);
  // Cancellation, network and anything unknown: retrying may work (contract default).
  return 'transient';
}

function classifyAnswer(op: string, err: ApiError): FailureClass {
  if (err.status >= 400 && err.status < 500) return 'permanent'; // 401, 403, 400 (incl. No such storage), other 4xx
  if (isConfigMissing(err)) return op === 'create' ? 'transient' : 'not-found';
  if (storagePlacementRefusal(err)) return 'permanent';
  return 'transient'; // locks, taken VMIDs, agent states, 595, 596, any other 5xx
}
