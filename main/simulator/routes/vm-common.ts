/** Lookups every VM route shares: the VM at `{vmid}` on `{node}`, or Proxmox's F2 answer. */
import { vmidOf, type RouteRequest } from '../context';
import { vmMissing } from '../errors';
import { int, str, type ParamSpecs } from '../params';
import type { SimVm } from '../state';

export const vmPathParams: ParamSpecs = { node: str, vmid: int };

/** A VM on another node is as missing as no VM at all: the config path names the node (F2). */
export function vmOf(req: RouteRequest): SimVm {
  const vm = req.sim.state.vm(vmidOf(req));
  if (!vm || vm.node !== req.path.node) throw vmMissing(req.path.node!, vmidOf(req));
  return vm;
}

export function requireVm(req: RouteRequest, privileges: string[], mode: 'all' | 'any' = 'all'): void {
  const path = `/vms/${req.path.vmid}`;
  if (mode === 'all') req.sim.tokens.requireAll(req.tokenId, path, privileges);
  else req.sim.tokens.requireAny(req.tokenId, path, privileges);
}

export function lockHeldByRunningTask(req: RouteRequest, vm: SimVm): boolean {
  return vm.lockTask !== undefined && req.sim.tasks.get(vm.lockTask)?.status === 'running';
}
