/**
 * Opens the profile file so that a broken one never stops the app and is
 * never silently replaced: a file that is not JSON, holds JSON that is not
 * an object (`null`, an array…), fails a migration, or fails the document
 * schema is renamed to `<name>.corrupt-<timestamp>.json`
 * beside it, a fresh document starts, and the problem (what was wrong and
 * where the copy is) is returned for the UI to show. An older version's file
 * in a folder that cannot be written (its upgrade is a write) is not broken:
 * it is read as upgraded, in memory, and written at the first save.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { StoreProblem } from '../../../shared/domain/profile';
import type { Logger } from '../../log/logger';
import { describeIssues, emptyDocument, ProfilesDocument } from './document';
import { memoryDocumentStore, type DocumentStore, type DocumentStoreOpener } from './document-store';
import { DOCUMENT_VERSION, migrations } from './migrations';
import { unwritableCode } from '../../files/unwritable';
import { deferredDocumentStore, notUpgradedProblem, startedEmptyProblem } from './unwritable';

import { PROFILE_FILE_NAME } from './document-store';

export { PROFILE_FILE_NAME };

export interface OpenedDocument {
  store: DocumentStore;
  doc: ProfilesDocument;
  problem?: StoreProblem;
}

type Attempt = { ok: true; store: DocumentStore; doc: ProfilesDocument } | { ok: false; reason: string; code?: string };

function attempt(open: () => DocumentStore): Attempt {
  let store: DocumentStore;
  try {
    store = open();
  } catch (err) {
    // conf's messages name the file and never quote its content.
    const code = unwritableCode(err);
    return { ok: false, reason: err instanceof Error ? err.message : String(err), ...(code ? { code } : {}) };
  }
  const raw = store.read();
  const empty = Object.keys(raw).length === 0;
  const parsed = ProfilesDocument.safeParse(empty ? emptyDocument() : raw);
  if (parsed.success) return { ok: true, store, doc: parsed.data };
  const issues = describeIssues(parsed.error);
  const shown = issues.slice(0, 20).join('; ') + (issues.length > 20 ? `; and ${issues.length - 20} more` : '');
  return { ok: false, reason: `The profile file does not hold valid profiles: ${shown}.` };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * conf reads a file holding `null`, an array, a number or a string as an
 * empty store, and its migrations would then write a fresh document over it.
 * Such a file is looked at first and reported as broken like any other.
 * Anything else (no file, text that is not JSON, a file that cannot be read)
 * is left to the opener, which says what is wrong in its own words.
 */
function notAnObject(file: string): Attempt | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return undefined;
  return { ok: false, reason: `The profile file holds ${kindOf(value)}, not a JSON object with profiles.` };
}

function backupName(file: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return join(dirname(file), `${basename(file, '.json')}.corrupt-${stamp}.json`);
}

export function openProfileDocument(opener: DocumentStoreOpener, cwd: string, logger: Logger, now = new Date()): OpenedDocument {
  const spec = { cwd, name: PROFILE_FILE_NAME, version: DOCUMENT_VERSION, migrations };
  const file = join(cwd, `${PROFILE_FILE_NAME}.json`);
  const missing = !existsSync(file);
  const first = notAnObject(file) ?? attempt(() => opener(spec));
  if (first.ok) return { store: first.store, doc: first.doc };
  // No file yet, and its first write failed (disk full, read-only, no permission): nothing to keep aside. Start empty
  // and write the file at the first save.
  if (missing && first.code) {
    logger.warn('profile file cannot be created; starting empty, saving later', { file, code: first.code });
    return startEmpty(opener, cwd, first.code);
  }
  // An older version's file whose upgrade could not be written: nothing is wrong with it, so it is never moved aside.
  const unupgraded = first.code ? upgradedInMemory(opener, cwd, file, first.code) : undefined;
  if (unupgraded) {
    logger.warn('profile file from an older version cannot be upgraded on disk; read as upgraded, saving later', {
      file,
      code: first.code,
    });
    return unupgraded;
  }

  const backupPath = backupName(file, now);
  try {
    if (existsSync(file)) renameSync(file, backupPath);
  } catch (err) {
    // Moving it aside failed: keep it untouched and work in memory, so nothing overwrites it.
    logger.error('profile file unreadable and could not be moved aside', { file, error: err });
    return {
      store: memoryDocumentStore(),
      doc: emptyDocument(),
      problem: {
        message: `${first.reason} It could not be moved aside (${(err as NodeJS.ErrnoException).code ?? 'error'}), so it was left as it is and changes made now will not be saved.`,
      },
    };
  }
  logger.warn('profile file unreadable; kept aside and started fresh', { file, backupPath, reason: first.reason });
  const fresh = attempt(() => opener(spec));
  if (!fresh.ok) throw new Error(`a fresh profile file could not be opened: ${fresh.reason}`);
  return {
    store: fresh.store,
    doc: fresh.doc,
    problem: {
      message: `${first.reason} The file was kept as ${backupPath} and the app started with no profiles. Fix or restore that copy, or import your profiles again.`,
      backupPath,
    },
  };
}

/** 1.0.0 < 2.0.0: conf's versions are plain x.y.z. */
function olderThan(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((x![i] ?? 0) !== (y![i] ?? 0)) return (x![i] ?? 0) < (y![i] ?? 0);
  return false;
}

/**
 * The file as conf would upgrade it (the migrations newer than the version it records, in order), without writing
 * it; the store opens the file for real, upgrade and all, at the first save. Undefined when it does not read as an
 * older, valid document: the usual path then says what is wrong with it.
 */
function upgradedInMemory(opener: DocumentStoreOpener, cwd: string, file: string, code: string): OpenedDocument | undefined {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { __internal__: internal, ...body } = raw;
  const version = (internal as { migrations?: { version?: unknown } } | undefined)?.migrations?.version;
  const from = typeof version === 'string' ? version : '0.0.0';
  if (!olderThan(from, DOCUMENT_VERSION)) return undefined;
  let doc = body;
  const steps = Object.entries(migrations).sort(([a], [b]) => (olderThan(a, b) ? -1 : 1));
  try {
    for (const [to, migrate] of steps) if (olderThan(from, to)) doc = migrate(doc);
  } catch {
    return undefined;
  }
  const parsed = ProfilesDocument.safeParse(doc);
  if (!parsed.success) return undefined;
  const spec = { cwd, name: PROFILE_FILE_NAME, version: DOCUMENT_VERSION, migrations };
  return {
    store: deferredDocumentStore(cwd, `${PROFILE_FILE_NAME}.json`, () => opener(spec), parsed.data),
    doc: parsed.data,
    problem: notUpgradedProblem(code, cwd),
  };
}

/**
 * The data folder cannot be written (`code`: ENOSPC, EROFS or EACCES) and holds no profile file: the app starts
 * with none, the first save makes the folder and the file, and the problem says so.
 */
export function startEmpty(opener: DocumentStoreOpener, cwd: string, code: string): OpenedDocument {
  const spec = { cwd, name: PROFILE_FILE_NAME, version: DOCUMENT_VERSION, migrations };
  return {
    store: deferredDocumentStore(cwd, `${PROFILE_FILE_NAME}.json`, () => opener(spec)),
    doc: emptyDocument(),
    problem: startedEmptyProblem(code, cwd),
  };
}
