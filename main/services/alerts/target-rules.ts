/**
 * Issue 24, targets: "Target unreachable", fed by the targets a check
 * fetched through a proxy after its echo (`checks.targets`). Any target
 * that failed holds the alert open for that proxy, saying how many, the
 * first one and its reason; a round where every target answered resolves
 * it. The egress check's own rules (proxy-rules.ts) never see a target: a
 * site the proxy cannot reach is not a proxy that does not work.
 */
import type { EventPayload } from '../../../shared/contract';
import type { AlertThresholds } from '../../../shared/domain/alert-rules';
import type { AlertEngine } from './engine';
import { vmTarget } from './proxy-rules';

export class TargetRules {
  constructor(
    private readonly engine: AlertEngine,
    private readonly thresholds: () => AlertThresholds,
    /** The proxy's name now, for the alert's words. */
    private readonly nameOf: (clusterId: string, vmid: number) => string | undefined,
  ) {}

  observeTargets(event: EventPayload<'checks.targets'>): void {
    const rule = 'target-unreachable' as const;
    const target = vmTarget(event.vmid);
    if (!this.thresholds().enabled[rule] || event.failed.length === 0) return this.engine.clear(rule, event.clusterId, target);
    const name = this.nameOf(event.clusterId, event.vmid);
    const label = name ? `proxy ${name} (${event.vmid})` : `proxy ${event.vmid}`;
    const first = event.failed[0]!;
    const more = event.failed.length > 1 ? ` and ${event.failed.length - 1} more` : '';
    this.engine.active(
      { rule, clusterId: event.clusterId, target, label },
      {
        reason: `${event.failed.length} of ${event.fetched} targets could not be reached through ${label}: ${first.url}${more}. ${first.problem}`,
        hint: "The proxy's own egress check is judged apart. Check that the proxy's rules allow these sites and their ports and that the sites are up; the proxy's drawer lists each target's last result.",
      },
    );
  }
}
