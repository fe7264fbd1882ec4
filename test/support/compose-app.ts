/**
 * The composed app as every test composes it: main's own composeApp, with
 * the scheduled checks on a clock that never moves unless the test passes
 * its own. A test of the composed app against the simulator has running
 * proxies whose addresses are the simulated guests' own (192.168.x, off
 * loopback): a scheduled check of one would be refused by the no-egress
 * guard whenever its phase of the interval (a hash of cluster and VMID over
 * wall time) fell inside the test. It did, in the session sentinel test and
 * then in the template builder's e2e, each composing the app its own way;
 * so no test imports main's composeApp but this file (test/unit/structure
 * holds it). Tests of the checks themselves move a ManualTimers of their own.
 */
import { composeApp as composeMainApp, type ComposedApp, type ComposeOptions } from '../../main/app/compose';
import { ManualTimers } from './services/inventory/manual-timers';

export type { ComposedApp, ComposeOptions };

export function composeApp(options: ComposeOptions): ComposedApp {
  return composeMainApp({ ...options, checks: { timers: new ManualTimers(), ...options.checks } });
}
