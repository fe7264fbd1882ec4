/**
 * Cluster profiles: the file they live in, their secrets, and the clusters
 * built from them. Keeps the ClusterDirectory every other service reads in
 * step with the stored profiles (rebuilt on save and delete, old clients
 * closed), and adds the demo cluster when the shell asks for it.
 */
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import type { ProfilesList, SaveProfileInput } from '../../../shared/channels/profiles';
import { takenProfileName, type AppSettings, type ProfileSummary, type StoreProblem } from '../../../shared/domain/profile';
import type { Budgets } from '../../core';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import { MutableClusterDirectory } from '../clusters/cluster';
import type { DemoCluster } from '../demo/demo-cluster';
import { SecretKeeper, type SealedSecret } from '../secrets/secret-keeper';
import type { SecretVault } from '../secrets/vault';
import { buildCluster, type BuiltCluster } from './build-cluster';
import type { ProfilesDocument, StoredProfile } from './document';
import type { DocumentStore } from './document-store';
import type { OpenedDocument } from './open-document';
import { exportText, importedName, parseImport } from './profile-transfer';
import { resolveSecret } from './resolve-secret';
import { profileTokenLine } from './token-line';
import { saveFailure, writeFailure } from '../../files/unwritable';
import { checkProfile, problemsError } from './validate-profile';

export interface ProfileServiceOptions {
  opened: OpenedDocument;
  vault: SecretVault;
  logger: Logger;
  directory?: MutableClusterDirectory;
  /** The data folder the file (and the key file) live in: named when a save fails for want of space or rights. */
  dataDir?: string;
  /** Shrunk in tests. */
  budgets?: Partial<Budgets>;
}

export class ProfileService {
  readonly directory: MutableClusterDirectory;
  private readonly store: DocumentStore;
  private readonly problem: StoreProblem | undefined;
  private readonly keeper: SecretKeeper;
  private readonly log: Logger;
  private readonly built = new Map<string, BuiltCluster>();
  private readonly listeners = new Set<() => void>();
  private doc: ProfilesDocument;
  private demo: DemoCluster | undefined;
  private demoStarting: Promise<void> | undefined;

  constructor(private readonly options: ProfileServiceOptions) {
    this.store = options.opened.store;
    this.doc = options.opened.doc;
    this.problem = options.opened.problem;
    this.keeper = new SecretKeeper(options.vault);
    this.log = options.logger.child({ part: 'profiles' });
    this.directory = options.directory ?? new MutableClusterDirectory();
    if (this.problem) this.log.warn('profile file problem', { ...this.problem });
    for (const profile of this.doc.profiles) this.rebuild(profile);
  }

  /** The vault the token secrets are sealed with; the alerts' webhook tokens are sealed by it too. */
  get vault(): SecretVault {
    return this.options.vault;
  }

  /** Where the file lives, for the words of a failed save. */
  private get dataDir(): string {
    return this.options.dataDir ?? (this.store.path ? dirname(this.store.path) : 'the data folder');
  }

  /** What the app should show about its profile file (a broken file kept aside; a data folder it cannot write). */
  notices(): string[] {
    return this.problem ? [this.problem.message] : [];
  }

  /** True when no profile is stored: the shell then starts the demo. */
  get isEmpty(): boolean {
    return this.doc.profiles.length === 0;
  }

  async list(): Promise<ProfilesList> {
    await this.demoStarting;
    const stored = this.doc.profiles.map((p) => this.summaryOf(p));
    const list: ProfilesList = {
      profiles: this.demo ? [this.demo.summary, ...stored] : stored,
      vault: await this.options.vault.backend(),
    };
    if (this.problem) list.storeProblem = this.problem;
    return list;
  }

  get(id: string): ProfileSummary {
    if (this.demo && id === this.demo.summary.id) return this.demo.summary;
    return this.summaryOf(this.find(id));
  }

  /**
   * Issue 26: the API token's one line (`user@realm!tokenid=secret`) for this profile alone, for the hand-off
   * bundle's `proxmox-token` file when the user asked for it; never logged, never in an answer.
   */
  async tokenLine(id: string): Promise<string> {
    if (this.demo && id === this.demo.summary.id) return this.demo.tokenLine();
    const profile = this.find(id);
    return profileTokenLine(profile, () => this.keeper.reveal(profile.id, profile.name, this.sealedOf(profile.id)));
  }

  async save(input: SaveProfileInput): Promise<ProfileSummary> {
    if (this.demo && input.id === this.demo.summary.id) throw demoIsBuiltIn();
    const existing = input.id === undefined ? undefined : this.find(input.id);
    const checked = checkProfile(input.profile);
    if (!checked.ok) throw problemsError('The profile', checked.problems, 'profile.');
    this.refuseDuplicateName(checked.fields.name, existing?.id);
    const id = existing?.id ?? randomUUID();
    const now = new Date().toISOString();
    const profile: StoredProfile = { ...checked.fields, id, createdAt: existing?.createdAt ?? now, updatedAt: now };
    const sealed = await resolveSecret(this.keeper, { id, profile, existing, sealed: this.sealedOf(id), secret: input.secret }).catch(
      (err: unknown) => {
        // The vault's key file is written at the first secret: a full or read-only disk is said in words.
        throw saveFailure(err, this.dataDir) ?? err;
      },
    );
    const secrets = sealed ? { ...this.doc.secrets, [id]: sealed } : without(this.doc.secrets, id);
    const profiles = existing ? this.doc.profiles.map((p) => (p.id === id ? profile : p)) : [...this.doc.profiles, profile];
    this.commit({ ...this.doc, profiles, secrets });
    this.rebuild(profile);
    this.log.info('profile saved', { id, name: profile.name, secretStorage: profile.token.secretStorage });
    this.changed();
    return this.summaryOf(profile);
  }

  async remove(id: string): Promise<boolean> {
    if (this.demo && id === this.demo.summary.id) throw demoIsBuiltIn();
    if (!this.doc.profiles.some((p) => p.id === id)) return false;
    const secrets = without(this.doc.secrets, id);
    this.commit({ ...this.doc, profiles: this.doc.profiles.filter((p) => p.id !== id), secrets });
    this.keeper.forget(id);
    this.dropCluster(id);
    this.log.info('profile deleted', { id });
    this.changed();
    return true;
  }

  exportProfiles(ids?: string[]): { fileName: string; json: string } {
    const chosen = ids === undefined ? this.doc.profiles : ids.map((id) => this.find(id));
    return exportText(chosen);
  }

  async importProfiles(json: string): Promise<ProfileSummary[]> {
    const incoming = parseImport(json);
    const names = new Set(this.doc.profiles.map((p) => p.name.toLowerCase()));
    const now = new Date().toISOString();
    const added: StoredProfile[] = incoming.map((fields) => {
      const name = importedName(fields.name, names);
      names.add(name.toLowerCase());
      return { ...fields, name, id: randomUUID(), createdAt: now, updatedAt: now };
    });
    this.commit({ ...this.doc, profiles: [...this.doc.profiles, ...added] });
    for (const p of added) this.rebuild(p);
    this.log.info('profiles imported', { count: added.length });
    this.changed();
    return added.map((p) => this.summaryOf(p));
  }

  settings(): AppSettings {
    return structuredClone(this.doc.settings);
  }

  updateSettings(patch: Partial<AppSettings>): AppSettings {
    this.commit({ ...this.doc, settings: { ...this.doc.settings, ...patch } });
    return this.settings();
  }

  /** Starts the demo cluster in the background; `list` waits for it, so the first view already shows it. */
  startDemo(start: () => Promise<DemoCluster>): void {
    this.demoStarting = start().then(
      (demo) => {
        this.demo = demo;
        this.directory.set(demo.cluster);
        this.changed();
      },
      (err: unknown) => this.log.error('the demo cluster did not start', { error: err }),
    );
  }

  /** The demo's catalogue for this session (a template built on it); never written, gone at the next start. */
  setDemoTemplates(templates: ProfileSummary['templates']): void {
    if (!this.demo) throw new AppError('not-found', 'The demo cluster is not running.', 'Pick a cluster from the list.');
    this.directory.set(this.demo.setTemplates(templates));
    this.changed();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.demoStarting;
    const clients = [...this.built.values()].map((b) => b.client.close());
    this.built.clear();
    await Promise.allSettled([...clients, this.demo?.close()]);
  }

  private summaryOf(p: StoredProfile): ProfileSummary {
    const secretAvailable = p.token.secretStorage === 'file' || this.keeper.holds(p.id, this.sealedOf(p.id));
    return { ...p, demo: false, secretAvailable };
  }

  /** The sealed secret stored under the profile's own id; never a member every object has (an id read from a file is any text). */
  private sealedOf(id: string): SealedSecret | undefined {
    return Object.hasOwn(this.doc.secrets, id) ? this.doc.secrets[id] : undefined;
  }

  private find(id: string): StoredProfile {
    const found = this.doc.profiles.find((p) => p.id === id);
    if (!found) throw new AppError('not-found', 'That cluster profile no longer exists.', 'Refresh the list of clusters.');
    return found;
  }

  private refuseDuplicateName(name: string, ownId: string | undefined): void {
    if (takenProfileName(name, this.doc.profiles, ownId)) throw new AppError('invalid-input', `A cluster named "${name}" already exists.`, 'Choose another name.', 'profile.name');
  }

  /** Writes the whole document atomically; memory changes only when the file did. */
  private commit(next: ProfilesDocument): void {
    try {
      this.store.write(next);
    } catch (err) {
      this.log.error('profile file not written', { file: this.store.path, code: (err as NodeJS.ErrnoException).code ?? 'error' });
      throw writeFailure(err, this.dataDir, { what: 'The profile file', path: this.store.path });
    }
    this.doc = next;
  }

  private rebuild(profile: StoredProfile): void {
    this.dropCluster(profile.id);
    try {
      const built = buildCluster(profile, {
        logger: this.options.logger,
        budgets: this.options.budgets,
        secret: (p) => this.keeper.reveal(p.id, p.name, this.sealedOf(p.id)),
        secretHeld: (p) => this.keeper.holds(p.id, this.sealedOf(p.id)),
      });
      this.built.set(profile.id, built);
      this.directory.set(built.cluster);
    } catch (err) {
      this.log.error('cluster not built from its profile', { id: profile.id, error: err });
    }
  }

  private dropCluster(id: string): void {
    const old = this.built.get(id);
    if (!old) return;
    this.built.delete(id);
    this.directory.remove(id);
    void old.client.close().catch(() => undefined);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function demoIsBuiltIn(): AppError {
  return new AppError(
    'permanent',
    'The demo cluster is built in and simulated; it cannot be changed or deleted.',
    'Add your own cluster instead; the demo goes away when the app starts with a profile configured.',
  );
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
}
