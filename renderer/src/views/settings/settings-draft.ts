/**
 * A Settings section's form: the saved settings as a draft of texts, edits
 * that survive a re-read (another window saved, the link came back), the
 * unsaved-edits guard, and a save that checks with the shared schema first
 * (a refused value is named by its field, nothing is sent, "Saved." is not
 * shown). Each section says only how its draft is made and checked.
 */
import { useEffect, useRef, useState } from 'react';
import type { AppSettings } from '../../../../shared/domain/profile';
import type { AppErrorValue } from '../../../../shared/errors';
import { useSettings } from '../../stores/settings';
import { useUnsavedGuard } from '../../stores/unsaved';

/** A section's check of its draft: the change to send, or the schema's issues. */
export type DraftCheck =
  { success: true; patch: Partial<AppSettings> } | { success: false; issues: readonly { path: readonly PropertyKey[]; message: string }[] };

const sameDraft = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).every((k) => a[k] === b[k]);

export function useSettingsDraft<D extends Record<string, string>>(draftOf: (s: AppSettings) => D, guard: { id: string; label: string }) {
  const settings = useSettings((s) => s.settings);
  const [draft, setDraft] = useState<D>();
  const [problems, setProblems] = useState<Partial<Record<string, string>>>({});
  const [error, setError] = useState<AppErrorValue>();
  const [saved, setSaved] = useState(false);
  // What main holds, as a draft: edits are what differs from it.
  const base = useRef<D>(undefined);
  useEffect(() => {
    if (!settings) return;
    const next = draftOf(settings);
    // Settings read again replace the draft only where nothing was edited.
    setDraft((d) => (d && base.current && !sameDraft(d, base.current) ? d : next));
    base.current = next;
  }, [settings, draftOf]);
  const dirty = draft !== undefined && base.current !== undefined && !sameDraft(draft, base.current);
  useUnsavedGuard(guard.id, guard.label, dirty);

  const edit = (change: Partial<D>) => {
    setSaved(false);
    setDraft((d) => (d ? { ...d, ...change } : d));
  };

  const save = async (check: (draft: D, settings: AppSettings) => DraftCheck) => {
    if (!settings || !draft) return;
    setSaved(false);
    const checked = check(draft, settings);
    if (!checked.success) {
      setProblems(Object.fromEntries(checked.issues.map((i) => [String(i.path[i.path.length - 1]), i.message])));
      return;
    }
    setProblems({});
    const answer = await useSettings.getState().update(checked.patch);
    setError(answer.ok ? undefined : answer.error);
    setSaved(answer.ok);
    if (answer.ok) {
      base.current = draftOf(answer.value);
      setDraft(base.current);
    }
  };

  return { settings, draft, problems, error, saved, edit, save };
}
