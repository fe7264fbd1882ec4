/**
 * template-unsuitable: a template of a cluster's catalogue that a create
 * could no longer clone, judged by the doctor's own verdict (the rules the
 * create applies before a clone: doctor/template-verdicts.ts templateVerdict
 * over core/provider/cluster/template.ts templateProblems), one alert per template
 * (`template:<vmid>`), with the first problem's fix as the hint. The verdicts
 * come from the template watch (template-watch.ts), which reads each
 * catalogue template's config; a template judged suitable again, or no
 * longer in the catalogue, resolves its alert.
 *
 * "No longer": a template that is gone or no longer a template always
 * raises (a catalogue entry was a template when it was added); any other
 * problem raises once this run has seen the template suitable, or keeps an
 * alert already open. A template unsuitable from the first read (the demo's
 * catalogue holds two on purpose, for the Templates view's verdicts) is the
 * Templates view's business, not a change to announce.
 */
import type { AlertThresholds } from '../../../shared/domain/alert-rules';
import type { AlertEngine } from './engine';
import { withoutStop } from './proxy-rules';

/** What the watch learned of one template of the catalogue. */
export interface CatalogueVerdict {
  /** The catalogue's key (the image name a create asks for). */
  key: string;
  vmid: number;
  /** Where the VM is; absent when it does not exist. */
  node?: string;
  /** Why a create would refuse it, each with its fix; empty: suitable. */
  /** `code`: core/provider/cluster/template.ts TemplateProblemCode, or 'missing' (no such VM). */
  problems: readonly { code: string; message: string; fix: string }[];
}

/** Problems that can only have come after the entry was added: always announced. */
const GONE: readonly string[] = ['missing', 'not-template'];

export const templateTarget = (vmid: number) => `template:${vmid}`;

export class TemplateRules {
  /** `cluster/vmid` of the templates this run has judged suitable. */
  private readonly seenSuitable = new Set<string>();

  constructor(
    private readonly engine: AlertEngine,
    private readonly thresholds: () => AlertThresholds,
    private readonly clusterName: (clusterId: string) => string,
  ) {}

  /**
   * Every template of one cluster's catalogue, judged now. An open alert of this cluster's not raised here resolves:
   * its template is suitable again or left the catalogue (or it is the one `templates` alert of an earlier version).
   */
  observeCatalogue(clusterId: string, verdicts: readonly CatalogueVerdict[]): void {
    const enabled = this.thresholds().enabled['template-unsuitable'];
    const unsuitable = new Set<string>();
    for (const v of enabled ? verdicts : []) {
      const seen = `${clusterId}/${v.vmid}`;
      if (v.problems.length === 0) {
        this.seenSuitable.add(seen);
        continue;
      }
      const target = templateTarget(v.vmid);
      const noLonger =
        v.problems.some((p) => GONE.includes(p.code)) ||
        this.seenSuitable.has(seen) ||
        this.engine.isOpen('template-unsuitable', clusterId, target);
      if (!noLonger || unsuitable.has(target)) continue; // never seen suitable; or one VM under two keys: one alert
      unsuitable.add(target);
      const where = v.node ? `VM ${v.vmid} on ${v.node}` : `VM ${v.vmid}`;
      this.engine.active(
        { rule: 'template-unsuitable', clusterId, target, label: `template "${v.key}" (${where}) of ${this.clusterName(clusterId)}` },
        {
          reason: `Template "${v.key}" (${where}) can no longer be cloned: ${v.problems.map((p) => withoutStop(p.message)).join('; ')}.`,
          hint: `${v.problems[0]!.fix} Creates of "${v.key}" fail until then; Templates shows the verdict, and Build template makes a new one.`,
        },
      );
    }
    for (const open of [...this.engine.openOf('template-unsuitable')])
      if (open.clusterId === clusterId && !unsuitable.has(open.target)) this.engine.clear('template-unsuitable', clusterId, open.target);
  }

  /** A template the catalogue names whose VM does not exist: its verdict, with the way out. */
  static missing(key: string, vmid: number): CatalogueVerdict {
    return {
      key,
      vmid,
      problems: [
        {
          code: 'missing',
          message: `VM ${vmid} does not exist`,
          fix: `Build the template again (Templates > Build template), or point "${key}" at another template in the cluster profile.`,
        },
      ],
    };
  }
}
