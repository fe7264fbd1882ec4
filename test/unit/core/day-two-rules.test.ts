/**
 * Issue 16's pure rules: the console URL as the Proxmox web UI builds it, when a reconfigure takes effect
 * (qemu-server's hotplug rules), a disk that does not grow, which actions a VM's row offers and why not.
 */
import { describe, expect, it } from 'vitest';
import { consoleUrl, consoleViewers, effectsOf, isProviderError } from '../../../main/core';
import { checkChange } from '../../../main/core/provider/operations/reconfigure';
import { operationsBlockedBy } from '../../../main/core/provider/rules/privileges';
import { actionApplies, OPERATOR_WARNING } from '../../../shared/domain/proxy-actions';

describe('the console URL', () => {
  it('is the web UI noVNC page for the node and VM, in openVNCViewer key order', () => {
    const link = consoleUrl({ url: 'https://pve.example:8006', node: 'pv1-2', vmid: 150001, name: 'proxy-a' });
    expect(link.url).toBe('https://pve.example:8006/?console=kvm&novnc=1&vmid=150001&vmname=proxy-a&node=pv1-2&resize=off&cmd=');
    expect(link.needs).toBe('VM.Console on /vms/150001 (your Proxmox login)');
  });

  it('is the xterm.js page for a VM with a serial port, and only then is xterm.js offered', () => {
    expect(consoleViewers({ serial0: 'socket' })).toEqual(['novnc', 'xtermjs']);
    expect(consoleViewers({ scsi0: 'local-lvm:vm-1-disk-0' })).toEqual(['novnc']);
    const link = consoleUrl({ url: 'https://10.0.0.5:8006/', node: 'pv1-1', vmid: 101, name: 'p', viewer: 'xtermjs' });
    expect(link.url).toBe('https://10.0.0.5:8006/?console=kvm&xtermjs=1&vmid=101&vmname=p&node=pv1-1&cmd=');
  });

  it('refuses a URL that is not https', () => {
    expect(() => consoleUrl({ url: 'http://pve:8006', node: 'n', vmid: 100, name: 'p' })).toThrow(/not https/);
  });
});

describe('when a reconfigure takes effect', () => {
  const base = { scsi0: 'local-lvm:vm-1-disk-1,size=4G', boot: 'order=scsi0' };
  it('cores never live; memory live only with memory hotplug and NUMA; the disk at once; user-data at next boot', () => {
    const change = { cores: 2, memoryMiB: 2048, diskGiB: 8, userData: { text: '#cloud-config\n', instanceId: 'p-1' } };
    expect(effectsOf(base, change, true)).toEqual([
      { field: 'cores', takesEffect: 'next-boot' },
      { field: 'memory', takesEffect: 'next-boot' },
      { field: 'disk', takesEffect: 'now' },
      { field: 'user-data', takesEffect: 'next-boot' },
    ]);
    expect(effectsOf({ ...base, hotplug: 'network,disk,usb,memory', numa: '1' }, { memoryMiB: 4096 }, true)).toEqual([
      { field: 'memory', takesEffect: 'now' },
    ]);
    expect(effectsOf({ ...base, hotplug: 'memory' }, { memoryMiB: 4096 }, true)).toEqual([{ field: 'memory', takesEffect: 'next-boot' }]);
    expect(effectsOf({ ...base, hotplug: 'cpu,memory', numa: '1' }, { cores: 4 }, true)).toEqual([
      { field: 'cores', takesEffect: 'next-boot' },
    ]);
  });

  it('refuses a disk that is not larger than today, and an empty change', () => {
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isProviderError(e) ? { kind: e.kind, code: e.code } : e;
      }
      return undefined;
    };
    expect(refusal(() => checkChange(1, base, { diskGiB: 4 }))).toEqual({ kind: 'permanent', code: 'disk-not-larger' });
    expect(refusal(() => checkChange(1, base, { diskGiB: 3 }))).toEqual({ kind: 'permanent', code: 'disk-not-larger' });
    expect(refusal(() => checkChange(1, base, {}))).toEqual({ kind: 'permanent', code: 'nothing-to-change' });
    // Not a disk too small, and not another VM: no boot disk to grow at all.
    expect(refusal(() => checkChange(1, { name: 'p' }, { diskGiB: 8 }))).toEqual({ kind: 'permanent', code: 'no-boot-disk' });
    expect(checkChange(1, base, { diskGiB: 5 })).toEqual({ disk: 'scsi0' });
  });
});

describe('which actions a row offers', () => {
  const marked = { status: 'running', owner: 'marked' as const, ours: true };
  it('a foreign VM gets only the console, each other action saying why', () => {
    const foreign = { status: 'running', owner: 'foreign' as const };
    expect(actionApplies(foreign, 'console')).toEqual({ enabled: true });
    for (const action of ['start', 'stop', 'migrate', 'reconfigure', 'recreate', 'delete'] as const) {
      const v = actionApplies(foreign, action);
      expect(v.enabled, action).toBe(false);
      expect(v.reason).toMatch(/carries no proxy mark/);
    }
  });

  it('an operator-made VM gets each action with the warning; ours without', () => {
    expect(actionApplies({ ...marked, ours: false }, 'migrate')).toEqual({ enabled: true, warning: OPERATOR_WARNING });
    expect(actionApplies(marked, 'migrate')).toEqual({ enabled: true });
    expect(actionApplies({ ...marked, ours: false }, 'start')).toEqual({ enabled: false, reason: 'It is already running.' });
  });

  it('a locked VM, or a migrate with nowhere to go, says why', () => {
    expect(actionApplies({ ...marked, lock: 'backup' }, 'reconfigure').reason).toMatch(/locked \(backup\)/);
    expect(actionApplies({ ...marked, otherNodesOnline: 0 }, 'migrate').reason).toMatch(/No other node/);
  });
});

describe('what a missing privilege blocks (the doctor names it)', () => {
  it('maps each privilege on / to the actions that send a request needing it', () => {
    expect(operationsBlockedBy(['VM.Migrate'])).toEqual(['migrate']);
    expect(operationsBlockedBy(['VM.Config.CPU'])).toEqual(['reconfigure', 'recreate']);
    expect(operationsBlockedBy(['VM.PowerMgmt'])).toEqual(['start', 'shutdown', 'stop', 'reboot', 'reconfigure', 'delete', 'recreate']);
    expect(operationsBlockedBy(['Sys.Audit'])).toEqual([]);
  });
});
