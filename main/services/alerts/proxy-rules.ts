/**
 * The three rules about one proxy, fed by the inventory's rows, this app's
 * own power and delete tasks, and the egress checks' results:
 *
 * - proxy-not-running: a marked proxy this app has seen running (or already
 *   alerted about) lists as stopped, and no stop, shutdown, reboot or delete
 *   task of this app for that VM explains it; raised after the threshold,
 *   resolved when it runs again or is gone. A node that is down lists its
 *   guests as `unknown`: that is the node rule's alert, not this one.
 * - egress-failing: N failed checks in a row (scheduled or Test); resolved
 *   by the next successful check.
 * - egress-address-changed: a successful check saw another address than the
 *   previous successful one; resolved when the old address is back or when
 *   the user acknowledges it (accepting the new address).
 */
import type { VmRow } from '../../../shared/channels/inventory';
import type { AlertThresholds } from '../../../shared/domain/alert-rules';
import type { CheckRecord } from '../history/types';
import type { AlertEngine } from './engine';

export interface CheckedProxy {
  clusterId: string;
  vmid: number;
  /** Absent while a clone is still running. */
  name?: string;
  node: string;
  /** The VM's Proxmox tags (issue 24: a tag can mark a pool of distinct exits). */
  tags?: readonly string[];
}

export const vmTarget = (vmid: number) => `vm:${vmid}`;

/**
 * A failure short of the threshold asks for another check this soon, so a proxy that stopped carrying traffic
 * is reported within one check interval plus this (issue 15's goal), not after N intervals.
 */
export const FAILURE_CONFIRMATION_MS = 30_000;
const proxyLabel = (name: string | undefined, vmid: number) => (name ? `proxy ${name} (${vmid})` : `proxy ${vmid}`);
const key = (clusterId: string, vmid: number) => `${clusterId}\u0000${vmid}`;

const stageHints: Record<NonNullable<CheckRecord['stage']>, string> = {
  connect:
    "The proxy's port does not answer: check that the VM runs and the proxy service is up in the guest, and that no firewall blocks the port.",
  handshake:
    'The proxy took the connection but did not finish its side of the protocol (it closed without answering, stopped part way or answered in another protocol): check its configuration (client rules, protocol, authentication) in the guest.',
  request:
    "The proxy took the request, but the check URL did not answer through it: check the VM's own internet access (gateway, DNS, upstream) and the check URL in Settings.",
};

export class ProxyRules {
  /** VMs seen running since start: only those "should be" running. */
  private readonly seenRunning = new Set<string>();
  /** VMs this app stopped, shut down, rebooted or deleted: not running is expected until they run again. */
  private readonly stoppedByApp = new Set<string>();
  private readonly failuresInRow = new Map<string, number>();
  private readonly lastGoodAddress = new Map<string, string>();
  /** For an open address alert: the address before the change, so its return resolves the alert. */
  private readonly addressBefore = new Map<string, string>();

  constructor(
    private readonly engine: AlertEngine,
    private readonly thresholds: () => AlertThresholds,
    /** The last successful check recorded before `at` (history): the address before a restart. */
    private readonly lastGoodBefore: (clusterId: string, vmid: number, at: number) => CheckRecord | undefined = () => undefined,
    /** Asks the checks for one more check of the proxy soon (a first failure is confirmed, not waited out). */
    private readonly confirmFailure: (clusterId: string, vmid: number) => void = () => undefined,
  ) {}

  /** An app task is stopping, shutting down, rebooting or deleting the VM. */
  stoppedByThisApp(clusterId: string, vmid: number): void {
    this.stoppedByApp.add(key(clusterId, vmid));
    this.engine.clear('proxy-not-running', clusterId, vmTarget(vmid));
  }

  observeVm(row: VmRow): void {
    const k = key(row.clusterId, row.vmid);
    const target = vmTarget(row.vmid);
    const t = this.thresholds();
    // Proxmox's status, not the table's state: a proxy booting (running, no address yet) runs.
    if (row.status === 'running') {
      this.seenRunning.add(k);
      this.stoppedByApp.delete(k);
      this.engine.clear('proxy-not-running', row.clusterId, target);
      return;
    }
    const shouldRun =
      row.owner === 'marked' &&
      (this.seenRunning.has(k) || this.engine.isOpen('proxy-not-running', row.clusterId, target)) &&
      !this.stoppedByApp.has(k);
    if (row.state === 'stopped' && shouldRun && t.enabled['proxy-not-running']) {
      this.engine.active(
        { rule: 'proxy-not-running', clusterId: row.clusterId, target, label: proxyLabel(row.name, row.vmid) },
        {
          reason: `${capital(proxyLabel(row.name, row.vmid))} on node ${row.node} is stopped. It was running, and this app did not stop it.`,
          hint: "Start it from the proxy's drawer, and look at the VM's task history in Proxmox for why it stopped (a shutdown from the guest or the Proxmox UI, an out-of-memory kill, a crash).",
          holdMs: t.proxyNotRunningSeconds * 1000,
        },
      );
    } else if (row.state === 'stopped' || !t.enabled['proxy-not-running']) {
      // Stopped on purpose, or the rule is off: nothing to say. Unknown, locked and provisioning say nothing either way.
      this.engine.clear('proxy-not-running', row.clusterId, target);
    }
  }

  /** The VM is no longer listed: every alert about it resolves, and what was known of it is forgotten. */
  removed(clusterId: string, vmid: number): void {
    const k = key(clusterId, vmid);
    for (const alert of this.engine.openMatching(clusterId, vmTarget(vmid))) this.engine.clear(alert.rule, clusterId, alert.target);
    for (const map of [this.failuresInRow, this.lastGoodAddress, this.addressBefore]) map.delete(k);
    this.seenRunning.delete(k);
    this.stoppedByApp.delete(k);
  }

  observeCheck(record: CheckRecord, proxy: CheckedProxy): void {
    const k = key(record.clusterId, record.vmid);
    const t = this.thresholds();
    const subject = { clusterId: record.clusterId, target: vmTarget(record.vmid), label: proxyLabel(proxy.name, record.vmid) };
    if (!record.ok) {
      const failures = (this.failuresInRow.get(k) ?? 0) + 1;
      this.failuresInRow.set(k, failures);
      if (!t.enabled['egress-failing']) this.engine.clear('egress-failing', subject.clusterId, subject.target);
      else if (failures < t.egressFailingChecks) this.confirmFailure(record.clusterId, record.vmid);
      else {
        this.engine.active(
          { rule: 'egress-failing', ...subject },
          {
            reason: `The egress check through ${subject.label} failed ${failures === 1 ? 'once' : `${failures} times in a row`}: ${withoutStop(record.problem ?? 'no answer')}.`,
            hint: stageHints[record.stage ?? 'request'],
          },
        );
      }
      return;
    }
    this.failuresInRow.set(k, 0);
    this.engine.clear('egress-failing', subject.clusterId, subject.target);
    this.observeAddress(k, record, subject, t);
  }

  /** The user acknowledged an address change: the new address is the one to compare with from now on. */
  accepted(clusterId: string, vmid: number): void {
    this.addressBefore.delete(key(clusterId, vmid));
    this.engine.clear('egress-address-changed', clusterId, vmTarget(vmid));
  }

  private observeAddress(
    k: string,
    record: CheckRecord,
    subject: { clusterId: string; target: string; label: string },
    t: AlertThresholds,
  ) {
    const address = record.egressAddress;
    if (!address) return;
    const previous = this.lastGoodAddress.get(k) ?? this.previousFromHistory(record);
    this.lastGoodAddress.set(k, address);
    if (!t.enabled['egress-address-changed']) {
      this.engine.clear('egress-address-changed', subject.clusterId, subject.target);
      return;
    }
    const before = this.addressBefore.get(k);
    if (before !== undefined && before === address) {
      this.addressBefore.delete(k);
      this.engine.clear('egress-address-changed', subject.clusterId, subject.target);
      return;
    }
    if (previous === undefined || previous === address) return;
    if (!this.engine.isOpen('egress-address-changed', subject.clusterId, subject.target)) this.addressBefore.set(k, previous);
    this.engine.active(
      { rule: 'egress-address-changed', ...subject },
      {
        reason: `${capital(subject.label)} now reaches the internet from ${address} (before: ${previous}).`,
        hint: 'If you expected it (a new address from the provider, a VPN or upstream that reconnected), acknowledge the alert to accept the new address; otherwise check the route and upstream of the VM.',
      },
    );
  }

  /** After a restart: the last successful check the history holds says the address before this one. */
  private previousFromHistory(record: CheckRecord): string | undefined {
    return this.lastGoodBefore(record.clusterId, record.vmid, record.at)?.egressAddress;
  }
}

/** A quoted reason that ends its own sentence loses its stop, so the alert's sentence ends once. */
export function withoutStop(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
