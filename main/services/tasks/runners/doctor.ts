/** The connect doctor rerun on a saved cluster, as a task. */
import { AppError } from '../../../errors/app-error';
import type { Runner } from './run-context';

export type DoctorRun = (clusterId: string, signal: AbortSignal) => Promise<{ message: string }>;

export function doctorRunner(run: DoctorRun | undefined): Runner {
  return async (ctx) => {
    if (!run) {
      throw new AppError(
        'permanent',
        'The connect doctor is not available in this build.',
        'Update Egress Desk, or run the checks from the cluster settings.',
      );
    }
    return (await run(ctx.cluster.id, ctx.signal)).message;
  };
}
