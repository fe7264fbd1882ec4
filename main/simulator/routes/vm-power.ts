/**
 * Start, stop, status/current and destroy. Start and stop queue behind a
 * lock held by a running task (F3); paused is `running` with `qmpstatus:
 * paused` (F14); a hibernated VM (`lock: suspended`) is destroyable.
 */
import { vmidOf, type Route, type RouteRequest } from '../context';
import { textError, vmLocked } from '../errors';
import { isUp, type SimVm } from '../state';
import { TaskFailure } from '../tasks';
import { exitStatus, message } from '../texts';
import { bootDiskBytes } from '../disks';
import { optBool, optInt, optStr } from '../params';
import { uptimeSeconds } from '../views';
import { lockHeldByRunningTask, requireVm, vmOf, vmPathParams } from './vm-common';

async function queueBehindLock(req: RouteRequest, vm: SimVm, log: string[]): Promise<void> {
  if (!lockHeldByRunningTask(req, vm)) return;
  log.push('trying to acquire lock...');
  await req.sim.tasks.waitUntil(() => !lockHeldByRunningTask(req, vm));
  log.push(' OK');
}

function powerTask(req: RouteRequest, type: 'qmstart' | 'qmstop', act: (vm: SimVm, log: string[]) => void): string {
  const vm = vmOf(req);
  const task = req.sim.tasks.start(req.path.node!, type, vm.vmid, { tokenId: req.tokenId }, async (t) => {
    await queueBehindLock(req, vm, t.log);
    await req.sim.clock.sleep(req.sim.durations[type]);
    if (!req.sim.state.vm(vm.vmid)) throw new TaskFailure(message('configMissing', { 'pv1-1': vm.node, '199999': vm.vmid }));
    act(vm, t.log);
  });
  return task.upid;
}

function start(vm: SimVm, req: RouteRequest, log: string[]): void {
  if (vm.lock === 'suspended') log.push('resuming VM from suspended state');
  else if (vm.lock) throw new TaskFailure(message('locked', { '(clone)': `(${vm.lock})` }));
  else if (isUp(vm.power)) throw new TaskFailure(exitStatus('alreadyRunning', { '199999': vm.vmid }));
  req.sim.state.setPower(vm.vmid, 'running');
}

function stop(vm: SimVm, req: RouteRequest): void {
  if (vm.lock && vm.lock !== 'suspended') throw new TaskFailure(message('locked', { '(clone)': `(${vm.lock})` }));
  if (vm.lock === 'suspended') return; // nothing runs; the suspend state stays
  req.sim.state.setPower(vm.vmid, 'stopped');
}

function currentStatus(req: RouteRequest): Record<string, unknown> {
  const vm = vmOf(req);
  const running = isUp(vm.power);
  const maxmem = Number(vm.config.memory ?? 512) * 1024 * 1024;
  const out: Record<string, unknown> = {
    vmid: vm.vmid,
    status: running ? 'running' : 'stopped',
    qmpstatus: vm.power === 'hibernated' ? 'stopped' : vm.power,
    uptime: uptimeSeconds(vm, req.sim.clock.now()),
    cpus: Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1),
    maxmem,
    mem: running ? Math.floor(maxmem * 0.4) : 0,
    maxdisk: bootDiskBytes(vm.config),
    disk: 0,
    cpu: running ? 0.01 : 0,
    netin: 0,
    netout: 0,
    diskread: 0,
    diskwrite: 0,
    ha: { managed: 0 },
  };
  if (vm.config.name !== undefined) out.name = String(vm.config.name);
  if (vm.config.tags !== undefined) out.tags = String(vm.config.tags);
  if (vm.config.agent !== undefined) out.agent = 1;
  if (vm.lock) out.lock = vm.lock;
  if (vm.template) out.template = 1;
  if (running) Object.assign(out, { pid: 4000 + vm.vmid, 'running-machine': 'pc-q35-11.0+pve0', 'running-qemu': '11.0.3' });
  return out;
}

function destroy(req: RouteRequest): string {
  const vm = vmOf(req);
  if (vm.lock && vm.lock !== 'suspended') throw vmLocked(vm.lock);
  if (isUp(vm.power)) throw textError('destroyRunning', 500, { '199999': vm.vmid });
  const task = req.sim.tasks.start(vm.node, 'qmdestroy', vm.vmid, { tokenId: req.tokenId }, async (t) => {
    await req.sim.clock.sleep(req.sim.durations.qmdestroy);
    for (const [, value] of Object.entries(vm.config).filter(([k]) => /^(scsi|virtio|sata|efidisk|tpmstate)\d+$/.test(k)))
      t.log.push(`  Logical volume "${String(value).split(',')[0]!.split(':')[1]}" successfully removed.`);
    if (vm.lock === 'suspended') t.log.push(`  Logical volume "vm-${vm.vmid}-state-suspend" successfully removed.`);
    t.log.push(`purging VM ${vm.vmid} from related configurations..`);
    req.sim.state.removeVm(vmidOf(req));
  });
  return task.upid;
}

const powerParams = { ...vmPathParams, skiplock: optBool, timeout: optInt, migratedfrom: optStr };

export const vmPowerRoutes: Route[] = [
  {
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/status/start',
    params: { ...powerParams, machine: optStr, 'force-cpu': optStr, stateuri: optStr, targetstorage: optStr },
    check: (req) => requireVm(req, ['VM.PowerMgmt']),
    handle: (req) => powerTask(req, 'qmstart', (vm, log) => start(vm, req, log)),
  },
  {
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/status/stop',
    params: { ...powerParams, keepActive: optBool, 'overrule-shutdown': optBool },
    check: (req) => requireVm(req, ['VM.PowerMgmt']),
    handle: (req) => powerTask(req, 'qmstop', (vm) => stop(vm, req)),
  },
  {
    method: 'GET',
    path: '/nodes/{node}/qemu/{vmid}/status/current',
    params: vmPathParams,
    check: (req) => requireVm(req, ['VM.Audit']),
    handle: currentStatus,
  },
  {
    method: 'DELETE',
    path: '/nodes/{node}/qemu/{vmid}',
    params: { ...vmPathParams, purge: optBool, 'destroy-unreferenced-disks': optBool, skiplock: optBool },
    check: (req) => requireVm(req, ['VM.Allocate']),
    handle: destroy,
  },
];
