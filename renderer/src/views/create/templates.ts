/**
 * Which of a cluster's catalogued templates the Create form offers. The
 * verdicts are the connect doctor's (the core's create rules, run by main),
 * from the same run the Templates view shows (key `templates:<profileId>`):
 * the form starts it when it is missing and judges nothing itself.
 */
import { useEffect } from 'react';
import type { TemplateVerdict } from '../../../../shared/channels/doctor';
import type { AppErrorValue } from '../../../../shared/errors';
import { useDoctor, type DoctorRun } from '../../stores/doctor';

export type TemplateCheck =
  { state: 'checking' } | { state: 'error'; error: AppErrorValue } | { state: 'ready'; verdicts: TemplateVerdict[] };

export interface TemplateOption {
  name: string;
  vmid: number;
  /** Why it cannot be chosen, in words (its verdict's first problem, or that it was not found). */
  reason?: string;
  /** Worth knowing about a suitable one (the verdict's notes). */
  notes: string[];
  /** The node the template lives on, when checked. */
  node?: string;
}

export interface TemplateOptions {
  /** Suitable ones, best first: the form's default is the first. */
  suitable: TemplateOption[];
  /** Unsuitable or not found in the cluster, with the reason: listed apart, never chosen. */
  refused: TemplateOption[];
  /** Not judged (checking, or the check failed). */
  unchecked: TemplateOption[];
}

export const templatesRunKey = (profileId: string) => `templates:${profileId}`;

/** The doctor's template verdicts for a cluster, starting the check if nothing has asked for it yet. */
export function useTemplateCheck(profileId: string | undefined): { check: TemplateCheck; retry: () => void } {
  const key = templatesRunKey(profileId ?? '');
  const run = useDoctor((s) => s.runs[key]);
  const runDoctor = useDoctor((s) => s.run);
  useEffect(() => {
    if (profileId && !useDoctor.getState().runs[templatesRunKey(profileId)]) void runDoctor(templatesRunKey(profileId), { profileId });
  }, [profileId, runDoctor]);
  const retry = () => {
    if (profileId) void runDoctor(key, { profileId });
  };
  return { check: toCheck(run), retry };
}

function toCheck(run: DoctorRun | undefined): TemplateCheck {
  if (!run || run.running) return { state: 'checking' };
  if (run.error) return { state: 'error', error: run.error };
  const discovery = run.report?.discovery;
  if (!discovery || discovery.status === 'skipped')
    return {
      state: 'error',
      error: {
        kind: 'transient',
        message: discovery?.message ?? 'The check did not reach the templates.',
        hint: discovery?.hint || 'Run the check again; if it keeps failing, open Settings and check the cluster.',
      },
    };
  // No template seen because calls were refused is not "none found": the verdicts are unknown.
  if (discovery.data.templates.length === 0 && discovery.data.problems.length > 0)
    return {
      state: 'error',
      error: {
        kind: 'permanent',
        message: `The check could not list the templates: ${discovery.data.problems.join(' ')}`,
        hint: discovery.hint || 'Run the connect doctor on the cluster in Settings: it names the missing privileges.',
      },
    };
  return { state: 'ready', verdicts: discovery.data.templates };
}

/**
 * Splits a catalogue (name -> VMID) by the verdicts. Best first: a template
 * with nothing noted before one with notes, then by name.
 */
export function templateOptions(catalogue: Record<string, { vmid: number }>, check: TemplateCheck): TemplateOptions {
  const entries = Object.entries(catalogue)
    .map(([name, { vmid }]) => ({ name, vmid }))
    .sort((a, b) => a.name.localeCompare(b.name));
  if (check.state !== 'ready') return { suitable: [], refused: [], unchecked: entries.map((e) => ({ ...e, notes: [] })) };
  const suitable: TemplateOption[] = [];
  const refused: TemplateOption[] = [];
  for (const e of entries) {
    const verdict = check.verdicts.find((v) => v.vmid === e.vmid);
    if (!verdict) refused.push({ ...e, notes: [], reason: `VMID ${e.vmid} was not found in the cluster` });
    else if (!verdict.suitable)
      refused.push({ ...e, notes: verdict.notes, reason: verdict.problems[0]?.message ?? 'the check found it unsuitable' });
    else suitable.push({ ...e, notes: verdict.notes, node: verdict.node });
  }
  suitable.sort((a, b) => a.notes.length - b.notes.length || a.name.localeCompare(b.name));
  return { suitable, refused, unchecked: [] };
}

/** The template the form may hold: the chosen one if it can be chosen, else the best suitable one, else none. */
export function pickTemplate(chosen: string, options: TemplateOptions, check: TemplateCheck): string {
  if (options.suitable.some((o) => o.name === chosen)) return chosen;
  // The check failed: the admin may choose any template knowingly, but none is picked for them.
  if (check.state === 'error' && options.unchecked.some((o) => o.name === chosen)) return chosen;
  return options.suitable[0]?.name ?? '';
}
