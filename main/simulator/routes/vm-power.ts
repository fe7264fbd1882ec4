/**
 * Start, stop, shutdown, reboot, resume, status/current and destroy. Power
 * tasks queue behind a lock held by a running task (F3: qemu-server takes the
 * config lock inside the task); paused is `running` with `qmpstatus: paused`
 * (F14); a hibernated VM (`lock: suspended`) is destroyable.
 *
 * Shutdown, reboot and resume follow qemu-server (proxmox/qemu-server@e6352be6
 * src/PVE/API2/Qemu.pm vm_shutdown, vm_reboot, vm_resume; src/PVE/QemuServer.pm
 * _do_vm_stop, vm_reboot): a paused VM is refused before the task unless
 * forceStop; a guest that ignores the request (`ignoresAcpi`) keeps running
 * for `timeout` seconds (default 60), then the task dies `VM quit/powerdown
 * failed - got timeout`, or with forceStop the VM is stopped hard; a reboot's
 * task ends once the guest is down, and qmeventd starts it again as a
 * separate qmstart task of root@pam (src/PVE/CLI/qm.pm cleanup).
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

type PowerTask = 'qmstart' | 'qmstop' | 'qmshutdown' | 'qmreboot' | 'qmresume';

function powerTask(req: RouteRequest, type: PowerTask, act: (vm: SimVm, log: string[]) => void | Promise<void>, sleepFirst = true): string {
  const vm = vmOf(req);
  const task = req.sim.tasks.start(req.path.node!, type, vm.vmid, { tokenId: req.tokenId }, async (t) => {
    await queueBehindLock(req, vm, t.log);
    if (sleepFirst) await req.sim.clock.sleep(req.sim.durations[type]);
    if (!req.sim.state.vm(vm.vmid)) throw new TaskFailure(message('configMissing', { 'pv1-1': vm.node, '199999': vm.vmid }));
    await act(vm, t.log);
  });
  return task.upid;
}

const lockedFailure = (vm: SimVm) => new TaskFailure(message('locked', { '(clone)': `(${vm.lock})` }));

/** qemu-server's vm_is_paused($vmid, 1): paused, prelaunch (or S3-suspended, not modelled). */
const isPaused = (vm: SimVm) => vm.power === 'paused' || vm.power === 'prelaunch';

/**
 * _do_vm_stop with shutdown: nothing to do when QEMU is not running; a lock fails the task; the guest powers off
 * after `qmshutdown`'s duration, or, ignoring the request, is still up after `timeout` seconds.
 */
async function guestShutdown(req: RouteRequest, vm: SimVm, log: string[], timeoutSec: number, force: boolean): Promise<void> {
  if (!isUp(vm.power)) return;
  if (vm.lock) throw lockedFailure(vm);
  if (!vm.ignoresAcpi) {
    await req.sim.clock.sleep(req.sim.durations.qmshutdown);
    req.sim.state.setPower(vm.vmid, 'stopped');
    return;
  }
  await req.sim.clock.sleep(timeoutSec * 1000);
  if (!force) throw new TaskFailure(exitStatus('shutdownTimeout'));
  log.push('VM still running - terminating now with SIGTERM');
  req.sim.state.setPower(vm.vmid, 'stopped');
}

function shutdownRoute(req: RouteRequest): string {
  const vm = vmOf(req);
  const force = req.params.forceStop === '1' || req.params.forceStop === 'true';
  if (isPaused(vm) && !force) throw textError('pausedCannotShutdown', 500);
  const timeoutSec = req.params.timeout !== undefined ? Number(req.params.timeout) : 60;
  return powerTask(req, 'qmshutdown', (v, log) => guestShutdown(req, v, log, timeoutSec, force), false);
}

function rebootRoute(req: RouteRequest): string {
  const vm = vmOf(req);
  if (isPaused(vm)) throw textError('pausedCannotShutdown', 500);
  if (!isUp(vm.power)) throw textError('vmNotRunningPower', 500, { '199999': vm.vmid });
  const timeoutSec = req.params.timeout !== undefined ? Number(req.params.timeout) : 60;
  return powerTask(
    req,
    'qmreboot',
    async (v, log) => {
      if (!isUp(v.power)) return; // only reboot if running
      await guestShutdown(req, v, log, timeoutSec, false);
      // qmeventd sees QEMU exit with a reboot request and runs `qm start` (a task of root@pam).
      req.sim.tasks.start(v.node, 'qmstart', v.vmid, { tokenId: 'root@pam' }, async () => {
        await req.sim.clock.sleep(req.sim.durations.qmstart);
        if (req.sim.state.vm(v.vmid) && !isUp(v.power)) req.sim.state.setPower(v.vmid, 'running');
      });
    },
    false,
  );
}

function resumeRoute(req: RouteRequest): string {
  const vm = vmOf(req);
  if (vm.lock !== 'suspended' && !isUp(vm.power)) throw textError('vmNotRunningPower', 500, { '199999': vm.vmid });
  return powerTask(req, 'qmresume', (v, log) => {
    if (v.lock === 'suspended') log.push('resuming VM from suspended state');
    else if (v.lock) throw lockedFailure(v);
    if (v.power !== 'running') req.sim.state.setPower(v.vmid, 'running');
  });
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
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/status/shutdown',
    params: { ...vmPathParams, skiplock: optBool, timeout: optInt, forceStop: optBool, keepActive: optBool },
    check: (req) => requireVm(req, ['VM.PowerMgmt']),
    handle: shutdownRoute,
  },
  {
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/status/reboot',
    params: { ...vmPathParams, timeout: optInt },
    check: (req) => requireVm(req, ['VM.PowerMgmt']),
    handle: rebootRoute,
  },
  {
    method: 'POST',
    path: '/nodes/{node}/qemu/{vmid}/status/resume',
    params: { ...vmPathParams, skiplock: optBool, nocheck: optBool },
    check: (req) => requireVm(req, ['VM.PowerMgmt']),
    handle: resumeRoute,
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
