/** The `doctor.*` channel handlers: `doctor.run` runs the doctor for the requesting window, with progress events when asked. */
import type { doctorChannels } from '../../../shared/channels/doctor';
import type { EventBus } from '../../ipc/event-bus';
import type { AreaHandlers } from '../../ipc/router';
import type { Logger } from '../../log/logger';
import type { ResolveProfileConnection } from './ports';
import { runDoctor } from './run-doctor';

export interface DoctorDeps {
  logger: Logger;
  bus: EventBus;
  resolveProfile?: ResolveProfileConnection;
}

export function doctorHandlers(deps: DoctorDeps): AreaHandlers<typeof doctorChannels> {
  return {
    'doctor.run': (input, ctx) => {
      const runId = input.runId;
      return runDoctor(input, {
        logger: deps.logger,
        signal: ctx.signal,
        resolveProfile: deps.resolveProfile,
        onProgress: runId === undefined ? undefined : (e) => deps.bus.publish('doctor.progress', { runId, ...e }),
      });
    },
  };
}
