/**
 * The alert rules (issue 15) as data both sides read: each rule's id, its
 * words, and the threshold the user can set in Settings (AppSettings.alertRules,
 * each value optional: absent means the default here). Main evaluates them
 * (main/services/alerts/); the renderer only shows and edits the numbers.
 */
import { z } from 'zod';

export const AlertRuleId = z.enum([
  'proxy-not-running',
  'egress-failing',
  'egress-address-changed',
  'egress-outside-expected',
  'egress-exit-shared',
  'target-unreachable',
  'node-unreachable',
  'seed-storage-low',
  'template-unsuitable',
]);
export type AlertRuleId = z.infer<typeof AlertRuleId>;

const whole = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what} must be a number.` })
    .int(`${what} must be a whole number.`)
    .min(min, `${what} must be at least ${min}.`)
    .max(max, `${what} must be at most ${max}.`);

/** What Settings keeps; every member optional, so an absent value is the default and a new rule needs no migration. */
export const AlertRuleSettings = z
  .object({
    /** Rules switched off: they raise nothing, and their open alerts resolve at the next evaluation. */
    disabled: z.array(AlertRuleId).max(16),
    /** Issue 24: tags whose proxies must each leave from their own address (a pool of distinct exits). */
    distinctExitTags: z.array(z.string().max(64)).max(32),
    /** How long a proxy that should run may be stopped before the alert (a quick restart by hand is no alert). */
    proxyNotRunningSeconds: whole('The time a proxy may be stopped', 0, 86_400),
    /** Failed egress checks in a row before the alert. */
    egressFailingChecks: whole('The failed checks in a row', 1, 100),
    /** How long a node may be unreachable before the alert. */
    nodeUnreachableSeconds: whole('The time a node may be unreachable', 0, 86_400),
    /** The seed storage's free share (percent) under which the alert is raised. */
    seedStorageFreePercent: whole('The free share of the seed storage', 1, 99),
  })
  .partial()
  .strict();
export type AlertRuleSettings = z.infer<typeof AlertRuleSettings>;

export const defaultAlertThresholds = {
  proxyNotRunningSeconds: 60,
  egressFailingChecks: 2,
  nodeUnreachableSeconds: 60,
  seedStorageFreePercent: 10,
} as const;
export type AlertThresholdKey = keyof typeof defaultAlertThresholds;

/** The settings over the defaults: what the engine evaluates with. */
export interface AlertThresholds extends Record<AlertThresholdKey, number> {
  enabled: Record<AlertRuleId, boolean>;
}

export function alertThresholds(settings: AlertRuleSettings | undefined): AlertThresholds {
  const off = new Set(settings?.disabled ?? []);
  return {
    proxyNotRunningSeconds: settings?.proxyNotRunningSeconds ?? defaultAlertThresholds.proxyNotRunningSeconds,
    egressFailingChecks: settings?.egressFailingChecks ?? defaultAlertThresholds.egressFailingChecks,
    nodeUnreachableSeconds: settings?.nodeUnreachableSeconds ?? defaultAlertThresholds.nodeUnreachableSeconds,
    seedStorageFreePercent: settings?.seedStorageFreePercent ?? defaultAlertThresholds.seedStorageFreePercent,
    enabled: Object.fromEntries(AlertRuleId.options.map((id) => [id, !off.has(id)])) as Record<AlertRuleId, boolean>,
  };
}

/** What a rule's alerts are about: its targets' prefix ('vm:105', 'node:pve1', 'storage:pve1/local', 'template:9000'). */
export type AlertTargetKind = 'vm' | 'node' | 'storage' | 'template';

export const alertTargetKind = (target: string): AlertTargetKind | undefined => {
  const kind = target.split(':')[0];
  return kind === 'vm' || kind === 'node' || kind === 'storage' || kind === 'template' ? kind : undefined;
};

/** The rules that can raise an alert about a target of this kind (what a per-target override offers). */
export const rulesFor = (target: string): AlertRuleId[] =>
  alertRuleCatalogue.filter((r) => r.about === alertTargetKind(target)).map((r) => r.id);

/** Each rule in words, with the threshold it has (none: the rule is only on or off). */
export const alertRuleCatalogue: readonly {
  id: AlertRuleId;
  title: string;
  explains: string;
  threshold?: AlertThresholdKey;
  unit?: string;
  about: AlertTargetKind;
}[] = [
  {
    id: 'proxy-not-running',
    about: 'vm',
    title: 'Proxy not running',
    explains: 'A proxy this app has seen running is stopped, and no stop, shutdown, reboot or delete of this app explains it.',
    threshold: 'proxyNotRunningSeconds',
    unit: 'seconds',
  },
  {
    id: 'egress-failing',
    about: 'vm',
    title: 'Egress failing',
    explains: 'The egress check through the proxy failed this many times in a row.',
    threshold: 'egressFailingChecks',
    unit: 'checks',
  },
  {
    id: 'egress-address-changed',
    about: 'vm',
    title: 'Egress address changed',
    explains: 'A successful check saw another egress address than the previous successful one.',
  },
  {
    id: 'egress-outside-expected',
    about: 'vm',
    title: 'Egress outside the expected',
    explains: "A successful check saw an egress address outside the proxy's expected exit (an address, a CIDR or a set).",
  },
  {
    id: 'egress-exit-shared',
    about: 'vm',
    title: 'Distinct exits shared',
    explains: 'Two proxies of a tag marked as a pool of distinct exits were last seen leaving from one address.',
  },
  {
    id: 'target-unreachable',
    about: 'vm',
    title: 'Target unreachable',
    explains:
      "A target listed for the proxy (or its tag) could not be reached through it at the last check, while the proxy's own egress check is judged apart.",
  },
  {
    id: 'node-unreachable',
    about: 'node',
    title: 'Node unreachable',
    explains: "A node's API did not answer (unreachable or timed out) for this long.",
    threshold: 'nodeUnreachableSeconds',
    unit: 'seconds',
  },
  {
    id: 'seed-storage-low',
    about: 'storage',
    title: 'Seed storage low',
    explains: 'The storage the seed ISOs go to has less than this share free on a node.',
    threshold: 'seedStorageFreePercent',
    unit: '% free',
  },
  {
    id: 'template-unsuitable',
    about: 'template',
    title: 'Template no longer suitable',
    explains:
      "A template of the cluster's catalogue could no longer be cloned: missing, no longer a template, or failing the checks a create makes (the doctor's verdict, read every 10 minutes).",
  },
];

/** A rule's title, the words every list, notice and webhook names it by (an unknown id as itself). */
export const alertRuleTitle = (rule: string): string => alertRuleCatalogue.find((r) => r.id === rule)?.title ?? rule;
