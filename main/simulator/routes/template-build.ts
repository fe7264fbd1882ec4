/**
 * Issue 14: building a template from a cloud image over the API, one route
 * per step. The image onto a storage: download-url.ts; the VM that imports
 * it: vm-create.ts; and here:
 *
 * - POST /nodes/{node}/qemu/{vmid}/template: qemu-server `template`, a
 *   `qmtemplate` task that renames the disks to base-… volumes.
 * - GET /cluster/nextid: pve-manager PVE/API2/Cluster.pm `nextid`.
 *
 * Texts: the sim_* fixtures named in main/simulator/texts.ts (each cites its source).
 */
import type { Route, RouteRequest } from '../context';
import { diskEntries } from '../disks';
import { fieldText, paramError, textError } from '../errors';
import { int, optInt, optStr, str } from '../params';
import type { SimVm } from '../state';
import { downloadUrlRoutes } from './download-url';
import { vmCreateRoutes } from './vm-create';
import { requireVm, vmOf } from './vm-common';

function convert(req: RouteRequest): string {
  const vm: SimVm = vmOf(req);
  if (vm.lock) throw textError('locked', 500, { '(clone)': `(${vm.lock})` });
  if (vm.template) throw textError('templateTwice', 500);
  if (vm.power !== 'stopped') throw textError('templateRunning', 500);
  const task = req.sim.tasks.start(vm.node, 'qmtemplate', vm.vmid, { tokenId: req.tokenId }, async () => {
    await req.sim.clock.sleep(500);
    for (const [key, value] of diskEntries(vm.config)) vm.config[key] = value.replace(/\bvm-(\d+)-disk-/g, 'base-$1-disk-');
    vm.template = true;
  });
  return task.upid;
}

function nextId(req: RouteRequest): string {
  const { state } = req.sim;
  if (req.params.vmid !== undefined) {
    const vmid = Number(req.params.vmid);
    if (state.vm(vmid)) throw paramError({ vmid: fieldText('nextidTaken', { '199999': vmid }) });
    return String(vmid);
  }
  // The vmlist is keyed by strings: JSON answers "100", as Proxmox does.
  return String(state.nextFreeVmid(100));
}

export const templateBuildRoutes: Route[] = [
  ...downloadUrlRoutes,
  ...vmCreateRoutes,
  {
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/template',
    params: { node: str, vmid: int, disk: optStr },
    check: (req) => requireVm(req, ['VM.Allocate']),
    handle: convert,
  },
  {
    method: 'GET',
    path: '/cluster/nextid',
    params: { vmid: optInt },
    handle: nextId,
  },
];
