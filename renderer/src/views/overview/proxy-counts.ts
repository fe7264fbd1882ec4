/** How many proxies a cluster has in each state, in the order the admin reads them. */
import type { VmRow, VmRowState } from '../../../../shared/channels/inventory';

export const stateOrder: VmRowState[] = ['running', 'provisioning', 'stopped', 'locked', 'unknown'];

export function proxyCounts(vms: VmRow[]): { state: VmRowState; count: number }[] {
  const counts = new Map<VmRowState, number>();
  for (const vm of vms) if (vm.owner !== 'foreign') counts.set(vm.state, (counts.get(vm.state) ?? 0) + 1);
  return stateOrder.map((state) => ({ state, count: counts.get(state) ?? 0 }));
}
