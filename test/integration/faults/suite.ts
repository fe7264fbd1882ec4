/** One operation's row of the fault matrix as Vitest cases: run, judge, take the fault away, retry, check the cluster. */
import { afterEach, describe, expect, it } from 'vitest';
import { healthHints } from '../../../main/services/health/reasons';
import { internalErrorValue } from '../../../main/ipc/app-error';
import { BYSTANDER, freshRequest, idOf, startCell, type Cell } from './cell';
import { dataFolderFaults, faults, matrix, type Operation } from './matrix';
import { arm, assertClean, assertStillServes, disarm, perform, retryAndConfirm, sweepOrphans, type Observed } from './run-cell';

export function judge(expected: (typeof matrix)[Operation][keyof (typeof matrix)[Operation]], seen: Observed): void {
  switch (expected.outcome) {
    case 'error':
      expect(seen.error, 'the operation should have failed').toBeDefined();
      expect(seen.error).toMatchObject({ kind: expected.kind });
      expect(seen.error!.message).not.toBe(internalErrorValue.message);
      expect(seen.error!.message.length).toBeGreaterThan(10);
      expect(seen.error!.hint).toMatch(expected.hint);
      if (expected.message) expect(seen.error!.message).toMatch(expected.message);
      return;
    case 'not-ready': {
      const [check] = seen.checks ?? [];
      expect(check).toMatchObject({ ready: false, reason: expected.reason });
      expect(check!.message.length).toBeGreaterThan(5);
      expect(healthHints[expected.reason]).toMatch(expected.hint);
      return;
    }
    case 'cancelled':
      expect(seen.cancelMessage).toMatch(expected.hint);
      return;
    case 'ok':
      expect(seen.error).toBeUndefined();
      return;
    default:
      throw new Error('not a runnable cell');
  }
}

export function matrixSuite(op: Operation): void {
  let cell: Cell | undefined;
  afterEach(async () => {
    await cell?.close();
    cell = undefined;
  });

  describe(`fault matrix: ${op}`, () => {
    for (const { id, label } of faults) {
      const expected = matrix[op][id];
      if (expected.outcome === 'n/a' || expected.outcome === 'elsewhere') continue;
      if (dataFolderFaults.has(id)) continue; // data-folder.test.ts runs these, on a real small disk
      it(`${label}: ${expected.outcome}${'kind' in expected ? ` ${expected.kind}` : ''}${'reason' in expected ? ` ${expected.reason}` : ''}`, async () => {
        cell = await startCell();
        const request = freshRequest();
        arm(cell, op, id, request);
        const seen = await perform(cell, op, id, request);
        judge(expected, seen);
        if (op === 'cleanup' && (id === 'noSeedStorage' || id === 'nodeDown')) expect(seen.problems?.join('\n')).toMatch(/pv1-1/);
        if (op === 'list' && id === 'vanish') expect(seen.listed).toEqual([idOf(BYSTANDER)]);
        disarm(cell);
        await assertStillServes(cell);
        await retryAndConfirm(cell, op, id, request);
        if (id === 'vanish') await sweepOrphans(cell);
        assertClean(cell);
      });
    }
  });
}
