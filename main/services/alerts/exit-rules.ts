/**
 * Issue 24, "Expected exit": the two rules about where a proxy reaches the
 * internet, fed by the egress checks' good results.
 *
 * - egress-outside-expected: the proxy has an expected exit (an address, a
 *   CIDR or a set: shared/domain/expected-exit.ts, typed by the user or
 *   learned from its first good check and confirmed), and a good check saw
 *   an address outside it; resolved by the next check inside it, or when
 *   the expected exit changes to take the address in.
 * - egress-exit-shared: two proxies carrying the same tag that the user
 *   marked as a pool of distinct exits were last seen leaving from one
 *   address; resolved once each proxy's latest check tells them apart.
 *
 * A proxy without an expected exit has its first good check's address
 * learned (proposed, not asserted) until the user confirms it.
 */
import type { AlertThresholds } from '../../../shared/domain/alert-rules';
import { exitWithin, expectedExitWords } from '../../../shared/domain/expected-exit';
import type { CheckRecord } from '../history/types';
import type { AlertEngine } from './engine';
import { vmTarget, type CheckedProxy } from './proxy-rules';

/** What the checks keep per proxy about its exit (checks/proxy-switches.ts). */
export interface ExitPrefs {
  /** The confirmed or typed expected exit; undefined: none yet. */
  expected(clusterId: string, vmid: number): readonly string[] | undefined;
  /**
   * A good check's address: proposed as the expected exit while none is set, or as the new one while checks leave
   * outside it (the checks decide which; proxy-switches.ts learnExit).
   */
  learn(clusterId: string, vmid: number, address: string): void;
  /** Tells when the user changed a proxy's expected exit, so its alert follows at once instead of at the next check. */
  onChange?(listener: (clusterId: string, vmid: number) => void): void;
}

/** No expected exits (tests and compositions without the checks): nothing is asserted or learned. */
export const noExitPrefs: ExitPrefs = { expected: () => undefined, learn: () => undefined };

const label = (p: CheckedProxy) => (p.name ? `proxy ${p.name} (${p.vmid})` : `proxy ${p.vmid}`);
const key = (clusterId: string, vmid: number) => `${clusterId}\u0000${vmid}`;

interface Seen {
  proxy: CheckedProxy;
  address: string;
}

export class ExitRules {
  /** Each proxy's last good check's address, with its tags then. */
  private readonly lastSeen = new Map<string, Seen>();

  constructor(
    private readonly engine: AlertEngine,
    private readonly thresholds: () => AlertThresholds,
    private readonly prefs: ExitPrefs,
    /** The tags the user marked as pools of distinct exits (Settings). */
    private readonly distinctTags: () => readonly string[],
  ) {
    prefs.onChange?.((clusterId, vmid) => {
      const seen = this.lastSeen.get(key(clusterId, vmid));
      if (seen) this.judgeExpected(clusterId, vmid, seen);
    });
  }

  observeCheck(record: CheckRecord, proxy: CheckedProxy): void {
    const address = record.egressAddress;
    if (!record.ok || !address) return;
    const seen = { proxy, address };
    this.lastSeen.set(key(record.clusterId, record.vmid), seen);
    this.prefs.learn(record.clusterId, record.vmid, address);
    this.judgeExpected(record.clusterId, record.vmid, seen);
    this.judgeShared(record.clusterId, this.thresholds());
  }

  /** The proxy's last good check's address against its expected exit (none: nothing is asserted). */
  private judgeExpected(clusterId: string, vmid: number, { proxy, address }: Seen): void {
    const t = this.thresholds();
    const subject = { clusterId, target: vmTarget(vmid), label: label(proxy) };
    const expected = this.prefs.expected(clusterId, vmid);
    if (!t.enabled['egress-outside-expected'] || !expected || exitWithin(expected, address)) {
      this.engine.clear('egress-outside-expected', subject.clusterId, subject.target);
    } else {
      this.engine.active(
        { rule: 'egress-outside-expected', ...subject },
        {
          reason: `${capital(subject.label)} reaches the internet from ${address}, outside its expected exit ${expectedExitWords(expected)}.`,
          hint: "Check the proxy's bridge, VLAN and upstream (a VPN that dropped, a route that changed). If the new exit is right, set it as the expected exit in the proxy's details.",
        },
      );
    }
  }

  /** Every proxy of a distinct-exit pool that shares its last address with another of the pool is alerted about. */
  private judgeShared(clusterId: string, t: AlertThresholds): void {
    const pools = new Set(this.distinctTags());
    const inCluster = [...this.lastSeen.values()].filter((s) => s.proxy.clusterId === clusterId);
    for (const seen of inCluster) {
      const target = vmTarget(seen.proxy.vmid);
      const tags = (seen.proxy.tags ?? []).filter((tag) => pools.has(tag));
      const others = inCluster.filter(
        (o) => o !== seen && o.address === seen.address && (o.proxy.tags ?? []).some((tag) => tags.includes(tag)),
      );
      if (!t.enabled['egress-exit-shared'] || others.length === 0) {
        this.engine.clear('egress-exit-shared', clusterId, target);
        continue;
      }
      const pool = tags.find((tag) => others.some((o) => o.proxy.tags?.includes(tag)))!;
      this.engine.active(
        { rule: 'egress-exit-shared', clusterId, target, label: label(seen.proxy) },
        {
          reason: `${capital(label(seen.proxy))} and ${others.map((o) => label(o.proxy)).join(', ')} reach the internet from one address, ${seen.address}, though the tag ${pool} marks them as distinct exits.`,
          hint: 'Put each proxy of the pool on its own exit (another bridge, VLAN or upstream), or take the tag off the pool of distinct exits in Settings.',
        },
      );
    }
  }

  /** The VM is gone: what was seen of it is forgotten (proxy-rules.ts resolves its alerts). */
  removed(clusterId: string, vmid: number): void {
    this.lastSeen.delete(key(clusterId, vmid));
  }
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
