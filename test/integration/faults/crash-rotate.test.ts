/**
 * Issue 24: the host process killed at every step of a credentials rotate
 * (matrix.ts rotateCrashSteps), its step's request held and then landing
 * with nobody listening, on each Proxmox VE version profile. After a
 * restart the task is listed as interrupted with Resume; Resume converges:
 * the same pending credentials (sealed in the data folder the child wrote)
 * go into the same seed, the proxy then refuses the old and takes the new,
 * they are current, no staged seed is left, and no password is in the
 * journal.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/log/logger';
import { JOURNAL_FILE } from '../../../main/services/tasks/records/journal';
import { ProxyRecords } from '../../../main/services/tasks/records/proxy-records';
import { createFileKeySealer } from '../../../main/services/tasks/sealer';
import { endpointOfUserData } from '../../../shared/domain/proxy-endpoint';
import { SEED_STORAGE, type PveVersion } from '../../../main/simulator';
import { presets } from '../../../renderer/src/views/create/presets';
import { simChecks, simCredentialStore, type SimChecks } from '../../support/rotate-world';
import { startEnv, type Env } from '../services/tasks/harness';
import { killAtStep } from './crash';
import { matrixVersions, rotateCrashSteps } from './matrix';
import { assertClean } from './run-cell';

const logger = createLogger({ sinks: [] });
let env: Env | undefined;
let checks: SimChecks | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await checks?.close();
  await env?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  env = checks = dataDir = undefined;
});

describe.each(matrixVersions)('Proxmox VE %s', (version: PveVersion) => {
  describe('host killed mid-rotate, then resumed', () => {
    it.each(rotateCrashSteps)('killed at %s: Resume converges', async (step) => {
      dataDir = mkdtempSync(join(tmpdir(), 'egress-rotate-crash-'));
      const folder = dataDir;
      const ref: { env?: Env } = {};
      const store = { current: simCredentialStore(() => ref.env?.t.sim, folder, logger) };
      const e = (env = ref.env = await startEnv({ version }));
      await e.manager.close();
      const name = 'proxy-rotate';
      // Made by the core (no create in the journal, whose steps the kill would read), recorded as this app's.
      const uid = crypto.randomUUID();
      const text = presets[1]!.render(8888, { credentials: true });
      const id = await e.t.cluster.provider.create({
        uid,
        name,
        placement: { zone: 'pv1-1', machineType: 'small', image: 't9001' },
        cloudInit: await store.current.fill('sim', uid, name, text, true),
      });
      const vmid = Number(id.split('/')[1]);
      store.current.noteVmid('sim', uid, vmid);
      new ProxyRecords({ dir: e.dir, logger }).noteOrigins([
        { clusterId: 'sim', uid, template: 't9001', machineType: 'small', sealedUserData: await createFileKeySealer(e.dir).seal(text), endpoint: endpointOfUserData(text) },
      ]);
      const old = (await store.current.credentialsOf('sim', vmid))!;
      const sim = e.t.sim;
      const baseline = new Set([...sim.state.vms.keys()].filter((id) => id !== vmid));
      checks = await simChecks(sim, store, logger);

      await killAtStep(e, step, { kind: 'rotate', vmid, name, dataDir: folder });

      // The restarted app reads the pending set the child sealed in the data folder.
      store.current = simCredentialStore(() => sim, folder, logger);
      const running = checks;
      e.manager = e.open({
        credentials: store.current,
        rotateCheck: (input, credentials, signal) => running.service.test(input, signal, { credentials }),
        rotateVerifyMs: 0,
      });
      const task = e.manager.list().find((t) => t.kind === 'rotate-credentials');
      expect(task).toMatchObject({ state: 'interrupted' });
      expect(task!.actions).toContain('resume');
      e.manager.resume(task!.id);
      const done = await e.manager.wait(task!.id);
      expect(done.state, done.message).toBe('succeeded');

      const now = (await store.current.credentialsOf('sim', vmid))!;
      expect(now.password).not.toBe(old.password);
      expect(await store.current.pendingOf('sim', uid)).toBeUndefined();
      const refused = await checks.check(vmid, old);
      expect(refused.problem?.message).toMatch(/refused the username and password/);
      expect((await checks.check(vmid)).reachable).toBe(true);
      const vm = sim.state.vms.get(vmid)!;
      expect(vm.power).toBe('running');
      expect(String(vm.config.ide2)).toContain(`${name}-seed.iso`);
      expect(sim.state.iso(vm.node, SEED_STORAGE, `${name}-seed.next.iso`), 'no staged copy left').toBeUndefined();
      const journal = readFileSync(join(e.dir, JOURNAL_FILE), 'utf8');
      for (const p of [old.password, now.password]) expect(journal).not.toContain(p);
      assertClean({ sim, baseline });
    });
  });
});
