/**
 * The webhook targets alerts are posted to, in their own file beside the
 * profiles (`alert-targets.json`, 0600, written atomically), never in the
 * settings. A target's token is kept as a cluster's token secret is, by the
 * same SecretKeeper (secrets/secret-keeper.ts) with the same three choices
 * and refusals: sealed by the OS keyring; this session only (memory, never
 * the file); or, only where the OS has no protected keyring and the user
 * chose it, on disk without real protection. The file holds only the sealed
 * form, or for a session token only that one was kept, so after a restart
 * the target says its token must be entered again and alerts skip it.
 * Decrypted tokens stay in memory, registered with the log redactor, and
 * never cross IPC: the renderer sees only `hasSecret` and where it is kept.
 * A held token is only sent to the origin (scheme, host, port) it was saved
 * for: moving the target elsewhere needs it again (secrets/secret-origin.ts).
 */
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { WebhookFormat, WebhookSecretStorage, type SaveWebhookTargetInput, type WebhookTarget } from '../../../shared/channels/alerts';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import { readPrivateJson, writePrivateJson } from '../../files/private-json-file';
import { saveFailure, writeFailure } from '../../files/unwritable';
import { SealedSecret, SecretKeeper } from '../secrets/secret-keeper';
import { refuseMovedSecret } from '../secrets/secret-origin';
import type { SecretVault } from '../secrets/vault';

export const WEBHOOK_TARGETS_FILE = 'alert-targets.json';
const MAX_TARGETS = 20;

const StoredTarget = z
  .object({
    id: z.string().min(1),
    name: z.string(),
    format: WebhookFormat,
    url: z.string(),
    topic: z.string().optional(),
    enabled: z.boolean(),
    secret: SealedSecret.optional(),
    /** 'session': a token was kept in memory only; the file never holds it. Absent for a sealed one (its own `storage`). */
    secretStorage: WebhookSecretStorage.optional(),
  })
  .strict();
type StoredTarget = z.infer<typeof StoredTarget>;

const TargetsFile = z.object({ version: z.literal(1), targets: z.array(StoredTarget) }).strict();

export interface WebhookTargetStore {
  list(): WebhookTarget[];
  /** Where tokens are kept, in words. */
  secretStorage(): Promise<string>;
  save(input: SaveWebhookTargetInput): Promise<WebhookTarget>;
  remove(id: string): boolean;
  /** The stored target and its token in clear, for a send; throws not-found for an unknown id, and TokenNeededError. */
  resolve(id: string): Promise<{ target: WebhookTarget; secret: string | undefined }>;
  /** Why an alert cannot be sent to this target now (its session token is gone), or undefined. */
  skipReason(id: string): string | undefined;
}

/** A session-only token after a restart: nothing is sent without it. */
export class TokenNeededError extends AppError {
  constructor(name: string) {
    super(
      'permanent',
      `The token of webhook "${name}" was kept for a session only and is gone since the app restarted: alerts are not sent to it.`,
      'Enter the token again in Settings > Alerts (Edit), or keep it another way.',
      'secret',
    );
  }
}

/** The keeper's refusals are worded for a cluster's form; the same words, pointed at this form's field. */
function forWebhookForm(e: unknown): unknown {
  if (!(e instanceof AppError) || e.field !== 'token.secretStorage') return e;
  return new AppError(e.kind, e.message, e.hint.replace(/, or use a token file\.$/, '.'), 'secretStorage');
}

export function createWebhookTargetStore(options: { dataDir?: string; vault: SecretVault; logger: Logger }): WebhookTargetStore {
  const log = options.logger.child({ part: 'webhook-targets' });
  const keeper = new SecretKeeper(options.vault);
  const path = options.dataDir ? join(options.dataDir, WEBHOOK_TARGETS_FILE) : undefined;
  let targets: StoredTarget[] = load();

  function load(): StoredTarget[] {
    // A broken file is set aside (private-json-file.ts), never overwritten: the app starts with no targets.
    return (path && readPrivateJson(path, TargetsFile, log)?.targets) || [];
  }

  /** Writes the file, then memory; a failed write changes nothing and says why as a profile save does (unwritable.ts). */
  function commit(next: StoredTarget[]): void {
    if (path) {
      try {
        writePrivateJson(path, { version: 1, targets: next });
      } catch (err) {
        log.error('webhook targets file not written', { file: path, code: (err as NodeJS.ErrnoException).code ?? 'error' });
        throw writeFailure(err, dirname(path), { what: 'The webhook targets file', path });
      }
    }
    targets = next;
  }

  const keyOf = (id: string) => `webhook:${id}`;
  const storageOf = (t: StoredTarget): WebhookSecretStorage | undefined => t.secret?.storage ?? t.secretStorage;
  /** A session token not in memory: kept for the previous run only. */
  const tokenGone = (t: StoredTarget) => t.secretStorage === 'session' && !keeper.holds(keyOf(t.id), undefined);
  const view = (t: StoredTarget): WebhookTarget => {
    const storage = storageOf(t);
    const gone = tokenGone(t);
    return {
      id: t.id,
      name: t.name,
      format: t.format,
      url: t.url,
      ...(t.topic ? { topic: t.topic } : {}),
      enabled: t.enabled,
      hasSecret: storage !== undefined && !gone,
      ...(storage ? { secretStorage: storage } : {}),
      ...(gone ? { secretNeeded: true } : {}),
    };
  };

  function find(id: string): StoredTarget {
    const found = targets.find((t) => t.id === id);
    if (!found) throw new AppError('not-found', 'That webhook target no longer exists.', 'Refresh Settings > Alerts.');
    return found;
  }

  return {
    list: () => targets.map(view),
    async secretStorage() {
      const backend = await options.vault.backend();
      return backend.protected
        ? `Tokens are sealed by this computer's keyring (${backend.detail}).`
        : `This computer offers no protected keyring for tokens (${backend.detail}): for each token, choose to keep it until the app quits, or on disk without real protection.`;
    },
    async save(input) {
      const existing = input.id === undefined ? undefined : find(input.id);
      if (!existing && targets.length >= MAX_TARGETS) {
        throw new AppError('invalid-input', `At most ${MAX_TARGETS} webhook targets.`, 'Remove one you no longer use first.');
      }
      // A held token stays with the server it was saved for (secret-origin.ts): another origin needs it again.
      if (existing && !input.secret && !input.clearSecret && storageOf(existing) && !tokenGone(existing)) {
        refuseMovedSecret(existing.url, input.url, 'token');
      }
      const id = existing?.id ?? randomUUID();
      const before = existing && !input.clearSecret ? storageOf(existing) : undefined;
      let secret = input.clearSecret ? undefined : existing?.secret;
      let storage = before;
      const wanted = input.secretStorage ?? 'keyring';
      try {
        if (input.secret) {
          secret = await keeper.seal(keyOf(id), input.secret, wanted);
          storage = wanted;
        } else if (input.clearSecret) {
          keeper.forget(keyOf(id));
        } else if (existing && before && input.secretStorage && input.secretStorage !== before) {
          // Moved without typing it again, as a cluster's secret is (profiles/resolve-secret.ts); a lost session token cannot move.
          if (tokenGone(existing)) throw new TokenNeededError(existing.name);
          const held = await keeper.current(keyOf(id), existing.secret);
          if (held === undefined) throw new TokenNeededError(existing.name);
          secret = await keeper.seal(keyOf(id), held, input.secretStorage);
          storage = input.secretStorage;
        }
      } catch (e) {
        // In browser mode the vault's key file is written at the first token: a full or read-only disk is said in words.
        throw (options.dataDir && saveFailure(e, options.dataDir)) || forWebhookForm(e);
      }
      if (storage === 'session') secret = undefined; // the file never holds a session token
      if (input.format === 'gotify' && !storage) {
        throw new AppError(
          'invalid-input',
          "Gotify needs the application's token.",
          'Enter the token of the Gotify application to post as.',
          'secret',
        );
      }
      const stored: StoredTarget = {
        id,
        name: input.name,
        format: input.format,
        url: input.url,
        ...(input.format === 'ntfy' && input.topic ? { topic: input.topic } : {}),
        enabled: input.enabled,
        ...(secret ? { secret } : {}),
        ...(storage === 'session' ? { secretStorage: 'session' as const } : {}),
      };
      commit(existing ? targets.map((t) => (t.id === id ? stored : t)) : [...targets, stored]);
      log.info('webhook target saved', { id, format: stored.format, secretStorage: storage ?? 'none' });
      return view(stored);
    },
    remove(id) {
      if (!targets.some((t) => t.id === id)) return false;
      commit(targets.filter((t) => t.id !== id));
      keeper.forget(keyOf(id));
      log.info('webhook target removed', { id });
      return true;
    },
    skipReason(id) {
      const stored = targets.find((t) => t.id === id);
      return stored && tokenGone(stored) ? new TokenNeededError(stored.name).message : undefined;
    },
    async resolve(id) {
      const stored = find(id);
      if (tokenGone(stored)) throw new TokenNeededError(stored.name);
      if (!storageOf(stored)) return { target: view(stored), secret: undefined };
      try {
        return { target: view(stored), secret: await keeper.reveal(keyOf(id), stored.name, stored.secret) };
      } catch {
        throw new AppError(
          'permanent',
          `The token of webhook "${stored.name}" could not be decrypted (the keyring or its key changed).`,
          'Enter the token again in Settings > Alerts.',
        );
      }
    },
  };
}
