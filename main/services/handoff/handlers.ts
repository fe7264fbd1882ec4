/** The hand-off's channels (shared/channels/handoff.ts) over the hand-off service. */
import type { handoffChannels, HandoffTargets } from '../../../shared/channels/handoff';
import type { AreaHandlers } from '../../ipc/router';
import type { HandoffService } from './service';
import { importManifests, type ImportDeps } from './import';

export interface ReleaseTasks {
  release(input: HandoffTargets): Promise<{ taskIds: string[] }>;
  reclaim(input: HandoffTargets): { taskIds: string[] };
  createProxies: ImportDeps['createProxies'];
}

export function handoffHandlers(service: HandoffService, tasks: ReleaseTasks): AreaHandlers<typeof handoffChannels> {
  return {
    'handoff.release': (input) => tasks.release(input),
    'handoff.undo': async (input) => tasks.reclaim(input),
    'handoff.import': (input) => importManifests(input, { profile: service.profile, profiles: service.profiles, createProxies: (i) => tasks.createProxies(i) }),
    'handoff.preview': (input) => service.preview(input),
    'handoff.save': (input) => service.save(input),
  };
}
