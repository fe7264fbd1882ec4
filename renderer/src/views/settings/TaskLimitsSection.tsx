/**
 * How much work the app puts on Proxmox at once: tasks per node, full clones
 * per storage, tasks in all. Each field may be left empty for its default.
 * Checked with the shared schema before saving (the one main checks with): a
 * refused value is named next to its field, nothing is sent and "Saved." is
 * not shown. Main applies a saved change at once, to work still queued.
 */
import { defaultTaskLimits, TaskLimits, type AppSettings } from '../../../../shared/domain/profile';
import { ErrorNotice, Field } from '../../components/common';
import { useActionsAvailable } from '../../stores/connection';
import { useSettingsDraft, type DraftCheck } from './settings-draft';

type Key = keyof typeof defaultTaskLimits;
type Draft = Record<Key, string>;

const draftOf = (s: AppSettings): Draft => ({
  perNode: s.taskLimits?.perNode === undefined ? '' : String(s.taskLimits.perNode),
  clonesPerStorage: s.taskLimits?.clonesPerStorage === undefined ? '' : String(s.taskLimits.clonesPerStorage),
  global: s.taskLimits?.global === undefined ? '' : String(s.taskLimits.global),
});

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

/**
 * Empty means the default: the number is left out, and main uses the default for it. Text (a typed "four")
 * reaches the schema as NaN, which it refuses in words, rather than being dropped as a number field would.
 */
function checkLimits(draft: Draft): DraftCheck {
  const next: Record<string, number> = {};
  for (const { key } of fields) if (draft[key].trim() !== '') next[key] = Number(draft[key]);
  const parsed = TaskLimits.safeParse(next);
  return parsed.success ? { success: true, patch: { taskLimits: parsed.data } } : { success: false, issues: parsed.error.issues };
}

export function TaskLimitsSection() {
  const { settings, draft, problems, error, saved, edit, save } = useSettingsDraft(draftOf, {
    id: 'settings.task-limits',
    label: 'Work at once',
  });
  const actions = useActionsAvailable();

  // The polling section says why the settings could not be loaded; this one waits for them.
  if (!settings || !draft) return null;

  return (
    <form
      aria-labelledby="settings-task-limits"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(checkLimits);
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
