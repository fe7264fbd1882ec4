/**
 * An in-memory PveApi for the core's unit tests: VMs, ISOs and tasks, with a
 * clone that leaves a nameless locked entry until its task ends (F8). Every
 * error is built from a fixture, never typed here.
 */
import { fixture, fixtureJson, fixtureMessage } from '../../../fixtures';
import type { PveApi, CloneParams, MigrateParams } from '../../../main/core/pve/api';
import { ApiError } from '../../../main/core/pve/errors';
import type { AgentInterface, ClusterResource } from '../../../main/core/pve/schemas';
import { formatUpid } from '../../../main/core/pve/upid';

export function fixtureError(name: string): ApiError {
  const body = fixtureJson<{ errors?: Record<string, string> }>(name);
  return new ApiError({
    status: fixture(name).status,
    message: fixtureMessage(name),
    errors: body?.errors,
    call: { method: 'X', path: '/fake' },
  });
}

export interface FakeVm {
  vmid: number;
  node: string;
  type: 'qemu' | 'lxc';
  template: boolean;
  config: Record<string, string>;
  status: 'running' | 'stopped';
  qmpstatus?: string;
  /** Listed lock; a clone in progress also hides the name. */
  lock?: string;
  agent: 'ip' | 'not-running' | 'unconfigured';
}

interface FakeTask {
  node: string;
  doneAt: number;
  exit: string;
  finish: () => void;
  finished: boolean;
}

const agentAnswer = fixtureJson<{ data: { result: AgentInterface[] } }>('agent_network_get_interfaces')!.data.result;

export class FakePve implements PveApi {
  vms = new Map<number, FakeVm>();
  isos = new Map<string, Uint8Array>();
  tasks = new Map<string, FakeTask>();
  calls: string[] = [];
  taskMs = 0;
  /** Throw these (in order) from the named method before doing anything. */
  faults = new Map<string, Error[]>();
  private pid = 1;

  addTemplate(vmid: number, config: Record<string, string> = {}, node = 'pv1-1'): void {
    this.vms.set(vmid, {
      vmid,
      node,
      type: 'qemu',
      template: true,
      status: 'stopped',
      agent: 'ip',
      config: {
        name: `tmpl-${vmid}`,
        template: '1',
        scsi0: 'local-lvm:base-disk-0,size=4G',
        boot: 'order=scsi0',
        net0: 'virtio=BC:24:11:00:00:01,bridge=vmbr0',
        ...config,
      },
    });
  }

  addVm(vm: Partial<FakeVm> & { vmid: number; config: Record<string, string> }): FakeVm {
    const full: FakeVm = { node: 'pv1-1', type: 'qemu', template: false, status: 'stopped', agent: 'ip', ...vm };
    this.vms.set(vm.vmid, full);
    return full;
  }

  private enter(method: string, ...args: unknown[]): void {
    this.calls.push(`${method} ${args.join(' ')}`.trim());
    // Proxmox finishes tasks whether or not anyone polls them.
    for (const t of this.tasks.values()) if (Date.now() >= t.doneAt) this.complete(t);
    const queue = this.faults.get(method);
    const err = queue?.shift();
    if (err) throw err;
  }

  private vm(vmid: number): FakeVm {
    const vm = this.vms.get(vmid);
    if (!vm) throw fixtureError('err_config_missing');
    return vm;
  }

  private task(node: string, type: string, id: string, finish: () => void, exit = 'OK'): string {
    const upid = formatUpid({ node, pid: this.pid++, pstart: 1, starttime: 1, type, id, user: 'egress@pve!desk' });
    const t: FakeTask = { node, doneAt: Date.now() + this.taskMs, exit, finish, finished: false };
    this.tasks.set(upid, t);
    if (this.taskMs === 0) this.complete(t);
    return upid;
  }

  private complete(t: FakeTask): void {
    if (t.finished) return;
    t.finished = true;
    t.finish();
  }

  async version() {
    this.enter('version');
    return { version: '9.2.20', release: '9.2', repoid: '49318c671b82f31e' };
  }
  async nodes() {
    return [];
  }
  async clusterStatus() {
    return [];
  }
  async clusterResources(): Promise<ClusterResource[]> {
    this.enter('clusterResources');
    return [...this.vms.values()].map((vm) => {
      const cloning = vm.lock === 'clone';
      return {
        id: `${vm.type}/${vm.vmid}`,
        type: vm.type,
        vmid: vm.vmid,
        node: vm.node,
        template: vm.template,
        status: cloning ? 'unknown' : vm.status,
        ...(cloning ? {} : { name: vm.config.name }),
        ...(vm.lock ? { lock: vm.lock } : {}),
        ...(vm.config.tags ? { tags: vm.config.tags } : {}),
      };
    });
  }
  async nodeStatus(node: string) {
    this.enter('nodeStatus', node);
    return { pveversion: 'pve-manager/9.2.20', kernel: '7.0.14-17-pve', cpu: 0, memory: { used: 1, total: 2 }, uptime: 1 };
  }
  async storageList() {
    return [];
  }
  async storageStatus(node: string, storage: string) {
    this.enter('storageStatus', node, storage);
    return { type: 'dir', content: ['iso'], active: true, avail: 10 * 2 ** 30 };
  }
  async storageContent() {
    return [];
  }
  async uploadIso(node: string, storage: string, filename: string, bytes: Uint8Array) {
    this.enter('uploadIso', node, storage, filename);
    return this.task(node, 'imgcopy', '', () => this.isos.set(`${node}/${storage}:iso/${filename}`, bytes));
  }
  async deleteVolume(node: string, storage: string, volid: string) {
    this.enter('deleteVolume', node, storage, volid);
    return this.task(node, 'imgdel', storage, () => this.isos.delete(`${node}/${volid}`));
  }
  async vmConfig(node: string, vmid: number) {
    this.enter('vmConfig', node, vmid);
    const vm = this.vm(vmid);
    return { ...vm.config, ...(vm.lock ? { lock: vm.lock } : {}) };
  }
  async setVmConfig(node: string, vmid: number, params: Record<string, string | number>) {
    this.enter('setVmConfig', node, vmid);
    const vm = this.vm(vmid);
    if (vm.lock) throw fixtureError('err_config_locked');
    for (const [k, v] of Object.entries(params)) vm.config[k] = String(v);
  }
  async clone(node: string, vmid: number, p: CloneParams) {
    this.enter('clone', node, vmid, p.newid);
    const source = this.vm(vmid);
    if (this.vms.has(p.newid)) throw fixtureError('err_clone_vmid_taken');
    const { template: _t, ...copied } = source.config;
    const vm = this.addVm({ vmid: p.newid, node: p.target ?? node, lock: 'clone', config: { lock: 'clone' } });
    return this.task(node, 'qmclone', String(vmid), () => {
      vm.config = { ...copied, name: p.name, description: p.description };
      delete vm.lock;
    });
  }
  async migrate(node: string, vmid: number, p: MigrateParams) {
    this.enter('migrate', node, vmid, p.target);
    const vm = this.vm(vmid);
    vm.lock = vm.config.lock = 'migrate';
    return this.task(node, 'qmigrate', String(vmid), () => {
      vm.node = p.target;
      delete vm.lock;
      delete vm.config.lock;
    });
  }
  async resize(node: string, vmid: number, disk: string, size: string) {
    this.enter('resize', node, vmid, disk, size);
    const vm = this.vm(vmid);
    return this.task(node, 'resize', String(vmid), () => (vm.config[disk] = (vm.config[disk] ?? '').replace(/size=[^,]+/, `size=${size}`)));
  }
  async start(node: string, vmid: number) {
    this.enter('start', node, vmid);
    const vm = this.vm(vmid);
    return this.task(node, 'qmstart', String(vmid), () => ((vm.status = 'running'), (vm.qmpstatus = 'running')));
  }
  async stop(node: string, vmid: number) {
    this.enter('stop', node, vmid);
    const vm = this.vm(vmid);
    return this.task(node, 'qmstop', String(vmid), () => ((vm.status = 'stopped'), (vm.qmpstatus = 'stopped')));
  }
  async shutdown(node: string, vmid: number) {
    this.enter('shutdown', node, vmid);
    const vm = this.vm(vmid);
    return this.task(node, 'qmshutdown', String(vmid), () => ((vm.status = 'stopped'), (vm.qmpstatus = 'stopped')));
  }
  async reboot(node: string, vmid: number) {
    this.enter('reboot', node, vmid);
    this.vm(vmid);
    return this.task(node, 'qmreboot', String(vmid), () => undefined);
  }
  async resume(node: string, vmid: number) {
    this.enter('resume', node, vmid);
    const vm = this.vm(vmid);
    return this.task(node, 'qmresume', String(vmid), () => ((vm.status = 'running'), (vm.qmpstatus = 'running')));
  }
  async vmStatus(node: string, vmid: number) {
    this.enter('vmStatus', node, vmid);
    const vm = this.vm(vmid);
    return { status: vm.status, qmpstatus: vm.qmpstatus ?? vm.status };
  }
  async destroy(node: string, vmid: number) {
    this.enter('destroy', node, vmid);
    this.vm(vmid);
    return this.task(node, 'qmdestroy', String(vmid), () => this.vms.delete(vmid));
  }
  async taskStatus(node: string, upid: string) {
    this.enter('taskStatus', node);
    const t = this.tasks.get(upid)!;
    if (!t.finished && Date.now() >= t.doneAt) this.complete(t);
    return t.finished
      ? { status: 'stopped' as const, exitstatus: t.exit, type: 'x', node, upid, starttime: 1 }
      : { status: 'running' as const, type: 'x', node, upid, starttime: 1 };
  }
  async taskLog() {
    return { lines: [], total: 0 };
  }
  async stopTask(node: string, upid: string) {
    this.enter('stopTask', node);
    const t = this.tasks.get(upid);
    if (t && !t.finished) this.complete(t);
  }
  async agentNetworkInterfaces(node: string, vmid: number) {
    this.enter('agentNetworkInterfaces', node, vmid);
    const vm = this.vm(vmid);
    if (vm.status !== 'running') throw fixtureError('err_agent_vm_stopped');
    if (vm.agent === 'not-running') throw fixtureError('err_agent_not_running');
    if (vm.agent === 'unconfigured') throw fixtureError('err_agent_unconfigured');
    return agentAnswer;
  }
  async network() {
    return [];
  }
  async permissions() {
    return {};
  }
  /** Finishes every task still running (a clone that ended while nobody watched). */
  finishAll(): void {
    for (const t of this.tasks.values()) this.complete(t);
  }
}
