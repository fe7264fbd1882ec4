/**
 * The inventory's read model of which proxies this app made, and from what
 * (it labels rows with it: one map lookup per marked VM). Kept in step on
 * each create and recreate, with the sealed user-data each put into its
 * seed; the journal's creates fill any gap at start.
 */
import type { ProxyOrigin, ProxyRecords } from '../records/proxy-records';
import type { TaskRecord } from '../records/task-record';

function originsOf(tasks: readonly TaskRecord[]) {
  return tasks.flatMap((t) =>
    t.input.kind === 'create-proxy' || t.input.kind === 'recreate-proxy'
      ? [
          {
            clusterId: t.clusterId,
            uid: t.input.kind === 'create-proxy' ? t.input.uid : t.input.newUid,
            template: t.input.template,
            machineType: t.input.machineType,
            sealedUserData: t.input.sealedCloudInit,
            endpoint: t.input.endpoint,
            network: t.input.network,
          },
        ]
      : [],
  );
}

export interface ProxyOrigins {
  /** Notes the origins of these tasks' proxies (written to proxy-records.json). */
  note(tasks: readonly TaskRecord[]): void;
  /** The template and machine type this app made the proxy with; undefined when this app did not make it (or forgot). */
  of(clusterId: string, uid: string): ProxyOrigin | undefined;
}

/** The origins over `records`, first filled from the journal's tasks (not written: they are the journal's already). */
export function proxyOrigins(records: ProxyRecords, journal: readonly TaskRecord[]): ProxyOrigins {
  records.noteOrigins(originsOf(journal), false);
  return {
    note: (tasks) => records.noteOrigins(originsOf(tasks)),
    of: (clusterId, uid) => records.origin(clusterId, uid),
  };
}
