/**
 * Where the alert tuning is kept: alert-tuning.json in the data folder (0600,
 * written atomically, a broken file set aside: private-json-file.ts), beside
 * the webhook targets' alert-targets.json. Without a data folder it lives in
 * memory for the session. A write that fails changes nothing and says why, in
 * the words of every save (main/files/unwritable.ts).
 */
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { AlertTuning } from '../../../shared/channels/alerts';
import { readPrivateJson, writePrivateJson } from '../../files/private-json-file';
import { writeFailure } from '../../files/unwritable';
import type { Logger } from '../../log/logger';
import { emptyTuning } from './tuning';

export const ALERT_TUNING_FILE = 'alert-tuning.json';

const TuningFile = z.object({ version: z.literal(1), tuning: AlertTuning }).strict();

export interface TuningStore {
  get(): AlertTuning;
  /** Writes the file, then memory. */
  save(next: AlertTuning): void;
}

export function createTuningStore(options: { dataDir?: string; logger: Logger }): TuningStore {
  const log = options.logger.child({ part: 'alert-tuning' });
  const path = options.dataDir ? join(options.dataDir, ALERT_TUNING_FILE) : undefined;
  let tuning: AlertTuning = (path && readPrivateJson(path, TuningFile, log)?.tuning) || emptyTuning();
  return {
    get: () => tuning,
    save(next) {
      if (path) {
        try {
          writePrivateJson(path, { version: 1, tuning: next });
        } catch (err) {
          log.error('alert tuning file not written', { file: path, code: (err as NodeJS.ErrnoException).code ?? 'error' });
          throw writeFailure(err, dirname(path), { what: 'The alert tuning file', path });
        }
      }
      tuning = next;
    },
  };
}
