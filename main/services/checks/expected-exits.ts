/**
 * Issue 24: each proxy's expected exit as the checks keep it (in the
 * switches' file, proxy-switches.ts) and as the user changes it: typed (an
 * address, a CIDR or several; refused in words otherwise), the proposal a
 * good check left confirmed, or cleared. The alerts' exit rules read it
 * through `prefs` and hear each change, so an alert follows at once.
 */
import { parseExpectedExit } from '../../../shared/domain/expected-exit';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import type { ProxySwitches } from './proxy-switches';

export interface ExpectedExitChange {
  clusterId: string;
  vmid: number;
  expected?: string | undefined;
  confirmLearned?: true | undefined;
  clear?: true | undefined;
}

/** What the drawer shows: the expected exit, and the address proposed (the first good one, or one outside it). */
export interface ExitView {
  expectedExit?: string[];
  learnedExit?: string;
}

export interface ExitPrefsPort {
  expected(clusterId: string, vmid: number): readonly string[] | undefined;
  learn(clusterId: string, vmid: number, address: string): void;
  /** Called after each change the user makes to an expected exit. */
  onChange(listener: (clusterId: string, vmid: number) => void): void;
}

export function expectedExits(switches: ProxySwitches, log: Logger) {
  const listeners = new Set<(clusterId: string, vmid: number) => void>();
  const view = (clusterId: string, vmid: number): ExitView => {
    const expectedExit = switches.expectedExit(clusterId, vmid);
    const learnedExit = switches.learnedExit(clusterId, vmid);
    return { ...(expectedExit ? { expectedExit: [...expectedExit] } : {}), ...(learnedExit ? { learnedExit } : {}) };
  };
  const prefs: ExitPrefsPort = {
    expected: (clusterId, vmid) => switches.expectedExit(clusterId, vmid),
    learn: (clusterId, vmid, address) => switches.learnExit(clusterId, vmid, address),
    onChange: (listener) => void listeners.add(listener),
  };
  function change({ clusterId, vmid, expected, confirmLearned, clear }: ExpectedExitChange): ExitView {
    if (clear) switches.setExpectedExit(clusterId, vmid, undefined);
    else if (confirmLearned) {
      const learned = switches.learnedExit(clusterId, vmid);
      if (!learned)
        throw new AppError(
          'invalid-input',
          'No check has seen this proxy’s exit yet, so there is nothing to confirm.',
          'Run Test, or type the expected exit.',
          'expected',
        );
      switches.setExpectedExit(clusterId, vmid, [learned]);
    } else {
      const parsed = parseExpectedExit(expected ?? '');
      if (!parsed.ok)
        throw new AppError('invalid-input', `${parsed.problem} The expected exit was not changed.`, 'Correct the expected exit and save again.', 'expected');
      switches.setExpectedExit(clusterId, vmid, parsed.entries);
    }
    log.info('proxy expected exit', { cluster: clusterId, vmid, set: switches.expectedExit(clusterId, vmid) !== undefined });
    for (const listener of listeners) listener(clusterId, vmid);
    return view(clusterId, vmid);
  }
  return { view, prefs, change };
}
