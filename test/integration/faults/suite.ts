/** One operation's row of the fault matrix as Vitest cases: run, judge, take the fault away, retry, check the cluster. */
import { afterEach, describe, expect, it } from 'vitest';
import { VERSION_PROFILES, type PveVersion } from '../../../main/simulator';
import { healthHints } from '../../../main/services/health/reasons';
import { internalErrorValue } from '../../../main/errors/app-error';
import { BYSTANDER, freshRequest, idOf, NODE, startCell, type Cell } from './cell';
import { dataFolderFaults, faults, matrix, matrixVersions, type Operation } from './matrix';
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

/** The path the version takes after the retry (matrix.ts `versionDifferences`): the disk grow with or without a task, the node's release. */
export async function assertVersionPath(cell: Cell, op: Operation, version: PveVersion): Promise<void> {
  const profile = VERSION_PROFILES[version];
  if (op === 'create') {
    const [vm] = [...cell.sim.state.vms.values()].filter((v) => v.config.name === freshRequest().name);
    expect(vm?.config.scsi0).toMatch(/size=8G/);
    const resizeTasks = [...cell.sim.tasks.tasks.values()].filter((t) => t.type === 'qmresize');
    expect(resizeTasks.length > 0, `a qmresize task ran on ${version}`).toBe(profile.resizeIsTask);
  }
  if (op === 'check') {
    const [check] = await cell.provider.check();
    expect(check).toMatchObject({ node: NODE, ready: true });
    expect(check!.details.pveVersion).toContain(profile.version.version);
    expect(check!.details.kernel, 'the kernel, from `kversion` where there is no `current-kernel`').toMatch(/-pve$/);
  }
}

export function matrixSuite(op: Operation): void {
  let cell: Cell | undefined;
  afterEach(async () => {
    await cell?.close();
    cell = undefined;
  });

  describe.each(matrixVersions)(`fault matrix: ${op} on Proxmox VE %s`, (version) => {
    for (const { id, label } of faults) {
      const expected = matrix[op][id];
      if (expected.outcome === 'n/a' || expected.outcome === 'elsewhere') continue;
      if (dataFolderFaults.has(id)) continue; // data-folder.test.ts runs these, on a real small disk
      it(`${label}: ${expected.outcome}${'kind' in expected ? ` ${expected.kind}` : ''}${'reason' in expected ? ` ${expected.reason}` : ''}`, async () => {
        cell = await startCell({ version });
        const request = freshRequest();
        arm(cell, op, id, request);
        const seen = await perform(cell, op, id, request);
        judge(expected, seen);
        if (op === 'cleanup' && (id === 'noSeedStorage' || id === 'nodeDown')) expect(seen.problems?.join('\n')).toMatch(/pv1-1/);
        if (op === 'list' && id === 'vanish') expect(seen.listed).toEqual([idOf(BYSTANDER)]);
        disarm(cell);
        await assertStillServes(cell);
        await retryAndConfirm(cell, op, id, request);
        await assertVersionPath(cell, op, version);
        if (id === 'vanish') await sweepOrphans(cell);
        assertClean(cell);
      });
    }
  });
}
