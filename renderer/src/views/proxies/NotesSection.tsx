/**
 * The drawer's "Notes and tags" (issue 23): the VM's notes as the Proxmox UI
 * shows them, below the marks (which this section never shows or sends), and
 * its tags; read when the drawer opens, edited here for a marked VM. What
 * Proxmox would refuse is said as it is typed (shared/domain/vm-notes.ts);
 * the save sends the digest of the read, so an edit made meanwhile in the
 * Proxmox UI is never overwritten (main says so and the text stays).
 */
import { useEffect, useState } from 'react';
import type { VmNotes } from '../../../../shared/channels/vm-meta';
import { isMarkLine, MARK_LINE_IN_NOTES, MAX_DESCRIPTION, tagProblem, typedTags } from '../../../../shared/domain/vm-notes';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { Field } from '../../components/common/Field';
import { useActionsAvailable } from '../../stores/connection';
import { useTasks } from '../../stores/tasks';
import type { ProxyRow } from './rows';
import './vm-meta.css';

interface Draft {
  notes: string;
  tags: string;
}

export function NotesSection({ row }: { row: ProxyRow }) {
  const api = useTasks((s) => s.api);
  const actions = useActionsAvailable();
  const [read, setRead] = useState<{ value?: VmNotes; error?: AppErrorValue }>();
  const [draft, setDraft] = useState<Draft>();
  const [saveError, setSaveError] = useState<AppErrorValue>();
  const [saving, setSaving] = useState(false);
  const name = row.name ?? '';

  useEffect(() => {
    if (!api || !name) return;
    let current = true;
    setDraft(undefined);
    void api.request['vm.notes']({ clusterId: row.clusterId, vmid: row.vmid, name }).then((a) => {
      if (current) setRead(a.ok ? { value: a.value } : { error: a.error });
    });
    return () => {
      current = false;
    };
  }, [api, row.clusterId, row.vmid, name]);

  const value = read?.value;
  const tagList = draft ? typedTags(draft.tags) : [];
  const tagsProblem = draft ? tagList.map(tagProblem).find((p) => p !== undefined) : undefined;
  const notesProblem = !draft
    ? undefined
    : draft.notes.split('\n').some(isMarkLine)
      ? MARK_LINE_IN_NOTES
      : draft.notes.length > MAX_DESCRIPTION
        ? `At most ${MAX_DESCRIPTION} characters, marks included`
        : undefined;

  const save = async () => {
    if (!api || !value || !draft) return;
    setSaving(true);
    const a = await api.request['vm.setNotes']({
      clusterId: row.clusterId,
      vmid: row.vmid,
      name,
      notes: draft.notes,
      tags: tagList,
      digest: value.digest,
    });
    setSaving(false);
    if (a.ok) {
      setRead({ value: a.value });
      setDraft(undefined);
      setSaveError(undefined);
    } else setSaveError(a.error);
  };

  return (
    <section className="drawer-section" aria-label="Notes and tags">
      <h3>Notes and tags</h3>
      {read?.error && <ErrorNotice error={read.error} title="The notes could not be read" />}
      {!read && name && <p className="muted">Reading the notes from Proxmox…</p>}
      {value && !draft && (
        <>
          {value.notes ? <p className="vm-notes">{value.notes}</p> : <p className="muted">No notes.</p>}
          <ul className="tag-list" aria-label="Tags">
            {value.proxyTag && (
              <li className="tag tag-system" title="Lists the VM as a proxy (the operator's ListByTag): kept on every save">
                proxy_operator
              </li>
            )}
            {value.tags.map((t) => (
              <li key={t} className="tag">
                {t}
              </li>
            ))}
          </ul>
          {value.marked ? (
            <button
              type="button"
              disabled={!actions.enabled}
              title={actions.reason}
              onClick={() => setDraft({ notes: value.notes, tags: value.tags.join(', ') })}
            >
              Edit notes and tags
            </button>
          ) : (
            <p className="muted">This VM carries no proxy mark: edit its notes and tags in the Proxmox UI.</p>
          )}
        </>
      )}
      {value && draft && (
        <div className="notes-editor">
          <p className="muted">
            Saved in the VM’s Notes in Proxmox, below the marks, which stay as they are. Tags: letters, digits and “_”, then also “-”, “+”
            and “.”; Proxmox stores them in lower case, sorted.
          </p>
          <Field label="Notes" problem={notesProblem}>
            <textarea rows={4} value={draft.notes} onChange={(e) => setDraft({ ...draft, notes: e.target.value })} />
          </Field>
          <Field label="Tags" problem={tagsProblem} help="Separated by commas or spaces">
            <input value={draft.tags} onChange={(e) => setDraft({ ...draft, tags: e.target.value })} autoComplete="off" />
          </Field>
          <div className="button-row">
            <button
              type="button"
              className="primary"
              disabled={saving || !actions.enabled || notesProblem !== undefined || tagsProblem !== undefined}
              onClick={() => void save()}
            >
              {saving ? 'Saving…' : 'Save'}
            </button>
            <button type="button" disabled={saving} onClick={() => (setDraft(undefined), setSaveError(undefined))}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {saveError && <ErrorNotice error={saveError} title="The notes were not saved" />}
    </section>
  );
}
