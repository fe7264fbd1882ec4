/**
 * How much work the app puts on Proxmox at once: tasks per node, full clones
 * per storage, tasks in all. Each field may be left empty for its default.
 * Checked with the shared schema before saving (the one main checks with): a
 * refused value is named next to its field, nothing is sent and "Saved." is
 * not shown. Main applies a saved change at once, to work still queued.
 */
import { useEffect, useRef, useState } from 'react';
import { defaultTaskLimits, TaskLimits, type AppSettings } from '../../../../shared/domain/profile';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice, Field } from '../../components/common';
import { useActionsAvailable } from '../../stores/connection';
import { useSettings } from '../../stores/settings';
import { useUnsavedGuard } from '../../stores/unsaved';

type Key = keyof typeof defaultTaskLimits;
type Draft = Record<Key, string>;

const draftOf = (s: AppSettings): Draft => ({
  perNode: s.taskLimits?.perNode === undefined ? '' : String(s.taskLimits.perNode),
  clonesPerStorage: s.taskLimits?.clonesPerStorage === undefined ? '' : String(s.taskLimits.clonesPerStorage),
  global: s.taskLimits?.global === undefined ? '' : String(s.taskLimits.global),
});

const sameDraft = (a: Draft, b: Draft) => a.perNode === b.perNode && a.clonesPerStorage === b.clonesPerStorage && a.global === b.global;

const fields: { key: Key; label: string; help: string }[] = [
  {
    key: 'perNode',
    label: 'Tasks per node',
    help: `1–64, default ${defaultTaskLimits.perNode}. Proxmox's own bulk actions run 4 at once unless datacenter.cfg max_workers says otherwise.`,
  },
  {
    key: 'clonesPerStorage',
    label: 'Full clones per storage',
    help: `1–16, default ${defaultTaskLimits.clonesPerStorage}. Each full clone copies the template's disk; more at once share the disk's bandwidth.`,
  },
  {
    key: 'global',
    label: 'Tasks in all',
    help: `1–64, default ${defaultTaskLimits.global}. Across every cluster.`,
  },
];

export function TaskLimitsSection() {
  const settings = useSettings((s) => s.settings);
  const [draft, setDraft] = useState<Draft>();
  const [problems, setProblems] = useState<Partial<Record<Key, string>>>({});
  const [error, setError] = useState<AppErrorValue>();
  const [saved, setSaved] = useState(false);
  const actions = useActionsAvailable();
  // What main holds, as a draft: edits are what differs from it.
  const base = useRef<Draft>(undefined);
  useEffect(() => {
    if (!settings) return;
    const next = draftOf(settings);
    // Settings read again (another window saved, the link came back) replace the draft only where nothing was edited.
    setDraft((d) => (d && base.current && !sameDraft(d, base.current) ? d : next));
    base.current = next;
  }, [settings]);
  const dirty = draft !== undefined && base.current !== undefined && !sameDraft(draft, base.current);
  useUnsavedGuard('settings.task-limits', 'Work at once', dirty);

  // The polling section says why the settings could not be loaded; this one waits for them.
  if (!settings || !draft) return null;

  const save = async () => {
    setSaved(false);
    // Empty means the default: the number is left out, and main uses the default for it. Text (a typed "four")
    // reaches the schema as NaN, which it refuses in words, rather than being dropped as a number field would.
    const next: Record<string, number> = {};
    for (const { key } of fields) if (draft[key].trim() !== '') next[key] = Number(draft[key]);
    const parsed = TaskLimits.safeParse(next);
    if (!parsed.success) {
      setProblems(Object.fromEntries(parsed.error.issues.map((i) => [i.path[i.path.length - 1] as string, i.message])));
      return;
    }
    setProblems({});
    const answer = await useSettings.getState().update({ taskLimits: parsed.data });
    setError(answer.ok ? undefined : answer.error);
    setSaved(answer.ok);
    if (answer.ok) {
      base.current = draftOf(answer.value);
      setDraft(base.current);
    }
  };
  const edit = (change: Partial<Draft>) => {
    setSaved(false);
    setDraft({ ...draft, ...change });
  };

  return (
    <form
      aria-labelledby="settings-task-limits"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="settings-task-limits">Work at once</h2>
      <p className="muted">Leave a field empty for its default. A change applies at once to work still waiting.</p>
      {fields.map(({ key, label, help }) => (
        <Field key={key} label={label} problem={problems[key]} help={help}>
          <input
            type="text"
            inputMode="numeric"
            placeholder={`${defaultTaskLimits[key]} (default)`}
            value={draft[key]}
            onChange={(e) => edit({ [key]: e.target.value })}
          />
        </Field>
      ))}
      {error && <ErrorNotice title="The limits were not saved" error={error} />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!actions.enabled} title={actions.reason}>
          Save limits
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
    </form>
  );
}
