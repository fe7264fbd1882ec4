/**
 * Issue 26: a release for the Kubernetes operator's adoption (the mark's uid
 * emptied) or its undo (the app's UID written back), under the proxy name's
 * lock like every write; the core checks the name, the mark and the uid it
 * expects on a config read right before the write, which carries that read's
 * digest. A resumed task finds its write done and says so.
 */
import { formatProviderId, MARK_UID_CODES, ProviderError } from '../../../core';
import { withName, type Runner } from './run-context';
import { isMarkInput } from '../records/task-record';
import type { ProxyRecords } from '../records/proxy-records';

export const MARK_STEP = 'rewrite the mark';

/** The record keeps which UID a released VM had, so Undo and the inventory know it (proxy-records.ts). */
export const markProxy =
  (records: ProxyRecords): Runner =>
  async (ctx) => {
    const input = ctx.current().input;
    if (!isMarkInput(input)) throw new Error('mark runner given another kind');
    const release = input.kind === 'release-proxy';
    const id = formatProviderId(input.vmid, input.name);
    ctx.update({ steps: [{ name: MARK_STEP, state: 'running' }] });
    const r = await withName(ctx, input.name, () =>
      ctx.cluster.provider
        .setMarkUid(
        id,
        {
          from: release ? input.uid : '',
          to: release ? '' : input.uid,
          ...(release && input.seedOn ? { seedOn: input.seedOn } : {}),
          ...(!release && input.releasedSeed ? { releasedSeed: input.releasedSeed } : {}),
        },
          { signal: ctx.signal },
        )
        .catch((e: unknown) => {
          // The operator has adopted it: the record keeps that, so Undo is no longer offered for it.
          if (e instanceof ProviderError && e.code === MARK_UID_CODES.adopted)
            try {
              records.noteAdopted(input.clusterId, input.uid);
            } catch {
              // Not kept (the data folder refused the write): the next undo reads the seed again and says the same.
            }
          throw e;
        }),
    );
    // A resumed run whose write was done still records it: the record follows the mark, never the other way round.
    records.noteReleased(input.clusterId, input.uid, release ? { vmid: input.vmid, name: input.name, seed: r.seed } : undefined);
    ctx.update({ steps: [{ name: MARK_STEP, state: r.written ? 'done' : 'skipped' }] });
    return release
      ? `${input.name} (VM ${r.vmid} on ${r.node}) is handed to the Kubernetes operator: its mark's uid is empty, so the operator's create adopts it.`
      : `${input.name} (VM ${r.vmid} on ${r.node}) is the app's again: its UID is back in the mark.`;
  };
