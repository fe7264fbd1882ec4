/**
 * A proxy a test made with the core directly, recorded as this app's (the
 * task manager's record, main/services/tasks/proxy-records.ts), as a create
 * through the task manager records it: a later migrate can rebuild its
 * create-time seed. Call while no task manager runs on `journalDir` (it reads
 * the record when it opens).
 */
import { createLogger } from '../../main/log/logger';
import { ProxyRecords } from '../../main/services/tasks/records/proxy-records';

export function recordMadeHere(journalDir: string, made: { clusterId: string; uid: string; template: string; machineType: string }): void {
  new ProxyRecords({ dir: journalDir, logger: createLogger({ sinks: [] }) }).noteOrigins([made]);
}
