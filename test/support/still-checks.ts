/**
 * The composed app's scheduled checks on a clock that never moves. A test of
 * the composed app against the simulator has running proxies whose addresses
 * are the simulated guests' own (192.168.x, off loopback): a scheduled check
 * of one would be refused by the no-egress guard whenever its phase of the
 * interval (a hash of cluster and VMID over wall time) fell inside the test.
 * Tests of the checks themselves move a ManualTimers of their own.
 */
import type { ComposeOptions } from '../../main/app/compose';
import { ManualTimers } from './services/inventory/manual-timers';

export function stillChecks(): NonNullable<ComposeOptions['checks']> {
  return { timers: new ManualTimers() };
}
