/**
 * The port the profile service keeps its file behind: in Electron,
 * electron-store (main/electron/document-store.ts); in plain Node (browser
 * mode, tests), `conf` itself, which electron-store is built on, so both
 * write atomically (temporary file, then rename) and run the same
 * migrations. Opening throws on a file that is not JSON or whose migration
 * fails; it never clears a file (`clearInvalidConfig: false`).
 */
import Conf from 'conf';
import { makeFilePrivate, PRIVATE_FILE_MODE } from '../../files/data-dir';
import type { Migration, RawDocument } from './migrations';

/** The file is `<dataDir>/profiles.json`. */
export const PROFILE_FILE_NAME = 'profiles';

export interface DocumentStore {
  /** The file, or undefined for a store that lives in memory. */
  readonly path: string | undefined;
  read(): RawDocument;
  /** Replaces the whole document atomically. */
  write(doc: RawDocument): void;
}

export interface DocumentStoreSpec {
  cwd: string;
  /** File name without `.json`. */
  name: string;
  version: string;
  migrations: Record<string, Migration>;
}

/** What conf and electron-store have in common, as far as this port needs it. */
export interface ConfLike {
  readonly path: string;
  store: Record<string, unknown>;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export type ConfOptions = {
  cwd: string;
  /** 0600: the file is the user's alone (conf's default leaves it to the umask, usually 0644). */
  configFileMode: number;
  projectVersion: string;
  clearInvalidConfig: false;
  accessPropertiesByDotNotation: false;
  migrations: Record<string, (store: ConfLike) => void>;
};

/** conf hands a migration the store; ours take and return plain documents. */
function confMigrations(migrations: Record<string, Migration>): ConfOptions['migrations'] {
  const out: ConfOptions['migrations'] = {};
  for (const [version, migrate] of Object.entries(migrations)) {
    out[version] = (store) => {
      const before = { ...store.store };
      const after = migrate(before);
      for (const key of Object.keys(before)) if (!(key in after)) store.delete(key);
      for (const [key, value] of Object.entries(after)) store.set(key, value);
    };
  }
  return out;
}

export function confOptions(spec: DocumentStoreSpec): ConfOptions {
  return {
    cwd: spec.cwd,
    configFileMode: PRIVATE_FILE_MODE,
    projectVersion: spec.version,
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    migrations: confMigrations(spec.migrations),
  };
}

export function documentStoreOver(conf: ConfLike): DocumentStore {
  // A file an older version wrote keeps its mode until the next write: made private now.
  makeFilePrivate(conf.path);
  return {
    path: conf.path,
    read: () => structuredClone({ ...conf.store }),
    write(doc) {
      conf.store = doc;
    },
  };
}

export type DocumentStoreOpener = (spec: DocumentStoreSpec) => DocumentStore;

export const openConfDocumentStore: DocumentStoreOpener = (spec) =>
  documentStoreOver(new Conf<Record<string, unknown>>({ ...confOptions(spec), configName: spec.name }));

/** A store that never touches the disk: when the app is composed without a data directory. */
export function memoryDocumentStore(initial: RawDocument = {}): DocumentStore {
  let doc = structuredClone(initial);
  return {
    path: undefined,
    read: () => structuredClone(doc),
    write(next) {
      doc = structuredClone(next);
    },
  };
}
