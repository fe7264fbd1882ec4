/**
 * The runner registry: every task kind with the steps it shows and the
 * runner that does its work (each in its own module). A bulk request's
 * parent kind runs nothing; its children do (bulk.ts).
 */
import { ADDRESS_STEP, type TaskKind } from '../../../../shared/channels/tasks';
import { createSteps, deleteSteps, migrateSteps, powerSteps, reconfigureSteps, recreateSteps } from '../../../core';
import { cleanSeeds, CLEAN_SEEDS_STEP } from './clean-seeds';
import { AppError } from '../../../errors/app-error';
import {
  buildTemplateRunner,
  buildTemplateSteps,
  cleanUpBuildRunner,
  cleanUpBuildSteps,
  type TemplateBuildDeps,
} from './build-template';
import { cleanUp } from './clean-up';
import { deleteProxy } from './delete';
import { doctorRunner, type DoctorRun } from './doctor';
import { migrateProxy } from './migrate';
import { powerProxy } from './power';
import type { ProxyRecords } from '../records/proxy-records';
import { reconfigureProxy } from './reconfigure';
import { recreateProxy } from './recreate';
import type { Runner } from './run-context';
import { createProxy } from './create';
import { rotateCredentials, rotateSteps, type RotateDeps } from './rotate-credentials';
import { markProxy, MARK_STEP } from './mark';

export interface KindSpec {
  /** The steps a fresh run shows, in order (the core's step names). */
  steps: readonly string[];
  run: Runner;
}

const parent: KindSpec = { steps: [], run: async () => '' };

export interface KindDeps {
  runDoctor?: DoctorRun | undefined;
  templateBuild?: TemplateBuildDeps | undefined;
  /** With the inventory to feed it, a create's last step is its address: the proxy is usable when it has one. */
  waitsForAddress: boolean;
  /** The seed's instance-id a reconfigure writes and a migrate rebuilds with (proxy-records.ts). */
  records: ProxyRecords;
  /** Issue 24: what a credentials rotate needs (the credential store, the check); absent: rotates fail in words. */
  rotate?: RotateDeps | undefined;
}

export function taskKinds(deps: KindDeps): Record<TaskKind, KindSpec> {
  return {
    'create-proxy': { steps: deps.waitsForAddress ? [...createSteps, ADDRESS_STEP] : createSteps, run: createProxy },
    'create-proxies': parent,
    'delete-proxy': { steps: deleteSteps, run: deleteProxy },
    'delete-proxies': parent,
    'clean-up': { steps: deleteSteps, run: cleanUp },
    'clean-seeds': { steps: [CLEAN_SEEDS_STEP], run: cleanSeeds },
    doctor: { steps: ['doctor'], run: doctorRunner(deps.runDoctor) },
    'build-template': { steps: buildTemplateSteps, run: buildTemplateRunner(deps.templateBuild) },
    'clean-up-build': { steps: cleanUpBuildSteps, run: cleanUpBuildRunner(deps.templateBuild) },
    'start-proxy': { steps: powerSteps.start, run: powerProxy },
    'shutdown-proxy': { steps: powerSteps.shutdown, run: powerProxy },
    'stop-proxy': { steps: powerSteps.stop, run: powerProxy },
    'reboot-proxy': { steps: powerSteps.reboot, run: powerProxy },
    'power-proxies': parent,
    'migrate-proxy': { steps: migrateSteps, run: migrateProxy(deps.records) },
    'migrate-proxies': parent,
    'reconfigure-proxy': { steps: reconfigureSteps, run: reconfigureProxy(deps.records) },
    'reconfigure-proxies': parent,
    'recreate-proxy': { steps: recreateSteps, run: recreateProxy },
    'recreate-proxies': parent,
    'rotate-credentials': {
      steps: rotateSteps,
      run: deps.rotate
        ? rotateCredentials(deps.rotate)
        : async () => {
            throw new AppError('permanent', 'This app keeps no proxy credentials, so it cannot rotate any.', 'Use the desktop app or browser mode.');
          },
    },
    'release-proxy': { steps: [MARK_STEP], run: markProxy(deps.records) },
    'reclaim-proxy': { steps: [MARK_STEP], run: markProxy(deps.records) },
  };
}
