/**
 * Issue 24: each proxy's username and password, generated here in main when
 * the seed of a user-data that asks for them is built (its placeholders,
 * shared/domain/proxy-credentials.ts), kept by the same SecretKeeper as the
 * cluster tokens, and answered to the checks, Test and the drawer's explicit
 * reveal (the ProxyCredentialLookup port). Removed when the proxy is deleted.
 *
 * Where it is kept: `proxy-credentials.json` (0600) in the data folder holds,
 * per proxy (cluster id and the VM's UID, with its name and VMID once known),
 * the username and the sealed secret: the keyring when this computer has a
 * protected one; without one, the cluster token's own choice (a token kept
 * for this session only keeps its proxies' passwords for this session only,
 * a token stored unprotected or in a file lets them be stored unprotected,
 * base64 only, as the token choice says). The sealed value is the password
 * with the two hashes the seed carried (their salts are random), so a seed
 * rebuilt for a migrate has the same bytes.
 *
 * A rotate (runners/rotate-credentials.ts) keeps the new set beside the
 * current one as the proxy's *pending* credentials, sealed the same way
 * (its own keeper key), from the moment it is asked for until its check
 * with them passed: a Resume builds the same seed bytes from them, and
 * neither set is lost while the guest may hold either. Only `rotateCommit`
 * makes them current and forgets the old.
 *
 * Long because it holds the pending set's life (begin, fill, commit) beside
 * the current set's, over one file and one keeper.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { fillCredentials, wantsCredentials } from '../../../shared/domain/proxy-credentials';
import { AppError } from '../../errors/app-error';
import { readPrivateJson, writePrivateJson } from '../../files/private-json-file';
import type { Logger } from '../../log/logger';
import { registerSecret } from '../../log/secrets';
import type { ProxyCredentialLookup, ProxyCredentials } from '../../ports/proxy-credentials';
import { SealedSecret, SecretKeeper, type HeldStorage } from '../secrets/secret-keeper';
import type { SecretVault } from '../secrets/vault';
import { md5Crypt, newSalt } from './md5-crypt';

export const PROXY_USERNAME = 'egress';
const FILE = 'proxy-credentials.json';

const Entry = z
  .object({
    clusterId: z.string().min(1),
    uid: z.string().min(1),
    name: z.string().min(1),
    vmid: z.number().int().optional(),
    username: z.string().min(1),
    storage: z.enum(['keyring', 'session', 'plaintext']),
    /** Absent for `session`: the secret is in memory only. */
    secret: SealedSecret.optional(),
    createdAt: z.string(),
    /** A rotate's new credentials, until its check with them passed (the same username). */
    pending: z
      .object({ storage: z.enum(['keyring', 'session', 'plaintext']), secret: SealedSecret.optional(), createdAt: z.string() })
      .strict()
      .optional(),
  })
  .strict();
type Entry = z.infer<typeof Entry>;
const Document = z.object({ version: z.literal(1), proxies: z.array(Entry) }).strict();

const Held = z.object({ password: z.string().min(1), apr1: z.string().min(1), crypt: z.string().min(1) }).strict();
type Held = z.infer<typeof Held>;

/** What the inventory knows of a VM: its UID (from the marks) and name. */
export interface KnownVm {
  uid?: string;
  name?: string;
}

export interface ProxyCredentialStoreOptions {
  vault: SecretVault;
  /** Absent: kept in memory only (tests, a data folder that cannot be written). */
  dataDir?: string;
  logger: Logger;
  /** The cluster token's storage choice; it decides where proxy passwords go when no protected keyring exists. */
  tokenStorage(clusterId: string): 'keyring' | 'session' | 'plaintext' | 'file' | undefined;
  /** The VM behind a VMID, from the inventory; read at each lookup. */
  vm?(clusterId: string, vmid: number): KnownVm | undefined;
}

export interface ProxyCredentialStore extends ProxyCredentialLookup {
  /**
   * The user-data with its credential placeholders filled for this proxy (credentials made and kept first); unchanged
   * without placeholders. `newVm`: the seed is for a VM being made (a create, a recreate's new VM), whose guest has
   * not booted with any other: credentials kept for a session that has ended are made again instead of refused.
   */
  fill(clusterId: string, uid: string, name: string, userData: string, newVm?: boolean): Promise<string>;
  /** The VMID a create got, so a lookup by VMID finds the proxy before the inventory lists its marks. */
  noteVmid(clusterId: string, uid: string, vmid: number): void;
  /** The proxy was deleted: its credentials go. */
  forget(clusterId: string, uid: string): void;
  /** The proxy's credentials, made now if it has none (the demo's own proxies, which no seed of the app made). */
  ensure(clusterId: string, uid: string, name: string, vmid: number): Promise<ProxyCredentials>;
  /** Whether the app holds credentials for the proxy (without revealing them). */
  has(clusterId: string, vmid: number): boolean;
  /**
   * A rotate is asked for: new credentials made and kept as the proxy's pending ones, beside the current; an earlier
   * rotate's pending ones, still held, are kept instead (the guest's seed may carry them already). Throws in words
   * when the proxy has no credentials the app keeps.
   */
  rotateBegin(clusterId: string, uid: string, name: string): Promise<void>;
  /** The user-data with its placeholders filled with the pending credentials; throws in words when none are held. */
  fillPending(clusterId: string, uid: string, name: string, userData: string): Promise<string>;
  /** The pending credentials, for the rotate's check; undefined when none are held. */
  pendingOf(clusterId: string, uid: string): Promise<ProxyCredentials | undefined>;
  /** Whether a rotate of the proxy has not ended: its guest's seed may carry either set. */
  hasPending(clusterId: string, uid: string): boolean;
  /** The rotate's check passed: the pending credentials become current, the old ones are forgotten. Idempotent. */
  rotateCommit(clusterId: string, uid: string): Promise<void>;
}

const keyOf = (clusterId: string, uid: string) => `proxy:${clusterId}:${uid}`;
const pendingKeyOf = (clusterId: string, uid: string) => `proxy-pending:${clusterId}:${uid}`;

/** 24 random bytes as URL-safe base64: 32 characters, 192 bits, nothing a URL, YAML or a config line needs to escape. */
export function newPassword(): string {
  return randomBytes(24).toString('base64url');
}

export function createProxyCredentialStore(options: ProxyCredentialStoreOptions): ProxyCredentialStore {
  const log = options.logger.child({ part: 'proxy-credentials' });
  const keeper = new SecretKeeper(options.vault);
  const path = options.dataDir ? join(options.dataDir, FILE) : undefined;
  const entries: Entry[] = (path ? readPrivateJson(path, Document, log)?.proxies : undefined) ?? [];

  const save = () => {
    if (path) writePrivateJson(path, { version: 1, proxies: entries });
  };
  const find = (clusterId: string, uid: string) => entries.find((e) => e.clusterId === clusterId && e.uid === uid);
  const byVmid = (clusterId: string, vmid: number): Entry | undefined => {
    const vm = options.vm?.(clusterId, vmid);
    // The VM's UID decides: a VMID reused by another VM never gets the deleted proxy's credentials.
    if (vm?.uid) return find(clusterId, vm.uid);
    return entries.find((e) => e.clusterId === clusterId && e.vmid === vmid && (vm?.name === undefined || vm.name === e.name));
  };

  async function storageFor(clusterId: string): Promise<HeldStorage> {
    if ((await options.vault.backend()).protected) return 'keyring';
    const token = options.tokenStorage(clusterId);
    return token === 'plaintext' || token === 'file' ? 'plaintext' : 'session';
  }

  async function held(entry: Entry): Promise<Held | undefined> {
    const key = keyOf(entry.clusterId, entry.uid);
    if (!keeper.holds(key, entry.secret)) return undefined;
    const text = await keeper.reveal(key, entry.name, entry.secret);
    const parsed = Held.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    registerSecret(parsed.data.password);
    return parsed.data;
  }

  async function heldPending(entry: Entry): Promise<Held | undefined> {
    const key = pendingKeyOf(entry.clusterId, entry.uid);
    if (!entry.pending || !keeper.holds(key, entry.pending.secret)) return undefined;
    const parsed = Held.safeParse(JSON.parse(await keeper.reveal(key, entry.name, entry.pending.secret)));
    if (!parsed.success) return undefined;
    registerSecret(parsed.data.password);
    return parsed.data;
  }

  const freshHeld = (): Held => {
    const password = newPassword();
    registerSecret(password);
    return { password, apr1: md5Crypt(password, newSalt(), '$apr1$'), crypt: md5Crypt(password, newSalt(), '$1$') };
  };

  const noPending = (name: string) =>
    new AppError(
      'permanent',
      `The new credentials of ${name}'s rotate are not available: they were kept for a session only, which has ended. The proxy's current credentials are unchanged in the app.`,
      'Rotate the credentials again: the app makes a new set and writes it into a new seed.',
    );

  async function make(clusterId: string, uid: string, name: string, stale?: Entry): Promise<Held> {
    if (stale) entries.splice(entries.indexOf(stale), 1);
    const made = freshHeld();
    const storage = await storageFor(clusterId);
    const secret = await keeper.seal(keyOf(clusterId, uid), JSON.stringify(made), storage);
    entries.push({
      clusterId,
      uid,
      name,
      username: PROXY_USERNAME,
      storage,
      ...(secret ? { secret } : {}),
      createdAt: new Date().toISOString(),
    });
    save();
    log.info('proxy credentials made', { cluster: clusterId, uid, name, storage });
    return made;
  }

  return {
    async fill(clusterId, uid, name, userData, newVm = false) {
      if (!wantsCredentials(userData)) return userData;
      let entry = find(clusterId, uid);
      let values = entry ? await held(entry) : await make(clusterId, uid, name);
      if (!values && entry && newVm) {
        // A create resumed after a restart, its password kept for the ended session only (issue 24): a new one.
        values = await make(clusterId, uid, name, entry);
        entry = find(clusterId, uid);
      }
      if (!values)
        throw new AppError(
          'permanent',
          `The password of ${name} is not available: it was kept for a session only. Its seed cannot be written again with it.`,
          'Recreate the proxy to give it new credentials.',
        );
      return fillCredentials(userData, { user: entry?.username ?? PROXY_USERNAME, password: values.password, apr1: values.apr1, crypt: values.crypt });
    },
    async ensure(clusterId, uid, name, vmid) {
      const entry = find(clusterId, uid);
      const values = (entry && (await held(entry))) ?? (await make(clusterId, uid, name, entry));
      this.noteVmid(clusterId, uid, vmid);
      return { username: entry?.username ?? PROXY_USERNAME, password: values.password };
    },
    noteVmid(clusterId, uid, vmid) {
      const entry = find(clusterId, uid);
      if (!entry || entry.vmid === vmid) return;
      entry.vmid = vmid;
      save();
    },
    forget(clusterId, uid) {
      const i = entries.findIndex((e) => e.clusterId === clusterId && e.uid === uid);
      if (i === -1) return;
      keeper.forget(keyOf(clusterId, uid));
      keeper.forget(pendingKeyOf(clusterId, uid));
      entries.splice(i, 1);
      save();
      log.info('proxy credentials removed', { cluster: clusterId, uid });
    },
    async rotateBegin(clusterId, uid, name) {
      const entry = find(clusterId, uid);
      if (!entry || !(await held(entry)))
        throw new AppError(
          'permanent',
          `Egress Desk keeps no username and password for ${name}, so it has none to rotate. Nothing was changed.`,
          'Recreate the proxy with "require a username and password" to give it credentials.',
        );
      if (await heldPending(entry)) return;
      const storage = await storageFor(clusterId);
      const secret = await keeper.seal(pendingKeyOf(clusterId, uid), JSON.stringify(freshHeld()), storage);
      entry.pending = { storage, ...(secret ? { secret } : {}), createdAt: new Date().toISOString() };
      save();
      log.info('proxy credentials rotate begun', { cluster: clusterId, uid, name, storage });
    },
    async fillPending(clusterId, uid, name, userData) {
      const entry = find(clusterId, uid);
      const values = entry && (await heldPending(entry));
      if (!entry || !values) throw noPending(name);
      return fillCredentials(userData, { user: entry.username, password: values.password, apr1: values.apr1, crypt: values.crypt });
    },
    async pendingOf(clusterId, uid) {
      const entry = find(clusterId, uid);
      const values = entry && (await heldPending(entry));
      return entry && values && { username: entry.username, password: values.password };
    },
    hasPending(clusterId, uid) {
      return find(clusterId, uid)?.pending !== undefined;
    },
    async rotateCommit(clusterId, uid) {
      const entry = find(clusterId, uid);
      if (!entry?.pending) return;
      const values = await heldPending(entry);
      if (!values) throw noPending(entry.name);
      const key = keyOf(clusterId, uid);
      keeper.forget(key);
      const secret = await keeper.seal(key, JSON.stringify(values), entry.pending.storage);
      entry.storage = entry.pending.storage;
      entry.createdAt = entry.pending.createdAt;
      delete entry.pending;
      delete entry.secret;
      if (secret) entry.secret = secret;
      keeper.forget(pendingKeyOf(clusterId, uid));
      save();
      log.info('proxy credentials rotated', { cluster: clusterId, uid, name: entry.name });
    },
    has(clusterId, vmid) {
      return byVmid(clusterId, vmid) !== undefined;
    },
    async credentialsOf(clusterId, vmid): Promise<ProxyCredentials | undefined> {
      const entry = byVmid(clusterId, vmid);
      if (!entry) return undefined;
      const values = await held(entry);
      return values && { username: entry.username, password: values.password };
    },
  };
}
