/**
 * Which requests only read. When the link to main drops before an answer
 * arrives, a read is simply failed (asking again is harmless); any other
 * request may have changed something in main, so its outcome is unknown and
 * the window says so after it reconnects ("check Tasks"). A channel missing
 * from this list counts as a change: the safe side.
 */
import type { ChannelName } from '../../../shared/contract';

const reads: ReadonlySet<string> = new Set<ChannelName>([
  'app.version',
  'app.echo',
  'profiles.list',
  'profiles.export',
  'settings.get',
  'inventory.snapshot',
  'inventory.refresh',
  'health.snapshot',
  'health.check',
  'rrd.vm',
  'rrd.node',
  'tasks.list',
  'tasks.get',
  'tasks.log',
  'tasks.watchLog',
  'cleanup.scan',
  'placement.landing',
  'templates.preflight',
  'doctor.run',
  'proxies.test',
  'proxies.credentials',
  'checks.latest',
  'checks.history',
  'alerts.list',
  'alerts.rules',
  'alerts.targets',
  'console.links',
  'network.bridges',
  'vm.notes',
  'vm.taskHistory',
  'vm.taskLog',
  'proxies.export',
  'cloudInit.check',
]);

export function isReadChannel(channel: string): boolean {
  return reads.has(channel);
}
