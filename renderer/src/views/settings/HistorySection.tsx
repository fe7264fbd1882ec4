/**
 * The history database (issue 15): how many days of check results, node
 * health and resolved alerts are kept, and where the file is and how big.
 * Main applies a saved retention at once; the file's state (moved aside
 * because it was corrupt, or running in memory) comes from `history.status`.
 */
import { useEffect, useState } from 'react';
import type { HistoryStatusView } from '../../../../shared/channels/history';
import { AppSettings, DEFAULT_HISTORY_RETENTION_DAYS } from '../../../../shared/domain/profile';
import type { AppErrorValue } from '../../../../shared/errors';
import { CopyButton, ErrorNotice, Field } from '../../components/common';
import { formatBytes } from '../../format';
import { useActionsAvailable } from '../../stores/connection';
import { useSettings } from '../../stores/settings';
import { useSettingsDraft, type DraftCheck } from './settings-draft';

type Draft = { retentionDays: string };

const draftOf = (s: AppSettings): Draft => ({
  retentionDays: s.historyRetentionDays === undefined ? '' : String(s.historyRetentionDays),
});

const RetentionField = AppSettings.pick({ historyRetentionDays: true });

/** Empty means the default, sent as its number (an absent field would not reset a saved one); text reaches the schema as NaN. */
function checkDraft(draft: Draft): DraftCheck {
  const parsed = RetentionField.safeParse({
    historyRetentionDays: draft.retentionDays.trim() === '' ? DEFAULT_HISTORY_RETENTION_DAYS : Number(draft.retentionDays),
  });
  return parsed.success
    ? { success: true, patch: { historyRetentionDays: parsed.data.historyRetentionDays } }
    : { success: false, issues: parsed.error.issues };
}

/** The database's file and state, asked again whenever the settings change (a new retention shrinks it). */
function useHistoryStatus(): { status?: HistoryStatusView; error?: AppErrorValue } {
  const api = useSettings((s) => s.api);
  const settings = useSettings((s) => s.settings);
  const [answer, setAnswer] = useState<{ status?: HistoryStatusView; error?: AppErrorValue }>({});
  useEffect(() => {
    if (!api) return;
    let current = true;
    void api.request['history.status']({}).then((a) => {
      if (current) setAnswer(a.ok ? { status: a.value } : { error: a.error });
    });
    return () => {
      current = false;
    };
  }, [api, settings]);
  return answer;
}

export function HistorySection() {
  const { settings, draft, problems, error, saved, edit, save } = useSettingsDraft(draftOf, {
    id: 'settings.history',
    label: 'History',
  });
  const { status, error: statusError } = useHistoryStatus();
  const actions = useActionsAvailable();
  if (!settings || !draft) return null;

  return (
    <form
      aria-labelledby="settings-history"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(checkDraft);
      }}
    >
      <h2 id="settings-history">History</h2>
      <p className="muted">
        Check results, node health and alerts are kept in a database on this computer. Older entries are deleted every hour; open alerts are
        always kept.
      </p>
      <Field
        label="Keep history for (days)"
        problem={problems.historyRetentionDays}
        help={`1–365, default ${DEFAULT_HISTORY_RETENTION_DAYS}. A shorter time deletes the older entries when saved.`}
      >
        <input
          type="text"
          inputMode="numeric"
          placeholder={`${DEFAULT_HISTORY_RETENTION_DAYS} (default)`}
          value={draft.retentionDays}
          onChange={(e) => edit({ retentionDays: e.target.value })}
        />
      </Field>
      {status && (
        <dl className="history-file">
          <dt>Database file</dt>
          <dd>
            {status.degraded ? (
              status.reopening ? (
                'none yet: kept in memory while the file is locked'
              ) : (
                'none: kept in memory until the app restarts'
              )
            ) : (
              <>
                <code>{status.path}</code> <CopyButton text={status.path} label="Copy the database path" />
              </>
            )}
          </dd>
          {!status.degraded && (
            <>
              <dt>Size</dt>
              <dd>{formatBytes(status.sizeBytes)}</dd>
            </>
          )}
        </dl>
      )}
      {status?.movedAside && (
        <div className="notice warn-notice" role="status">
          <p>
            The history file {status.movedAside.reason}, so it was moved aside to <code>{status.movedAside.path}</code> and a new one was
            started. The old history is in that file if you want to keep or inspect it; the app no longer reads it.
          </p>
        </div>
      )}
      {status?.degraded && status.reopening && (
        <div className="notice warn-notice" role="status">
          <p>
            The history database could not be opened: {status.degraded}. History is kept in memory meanwhile; the app keeps trying the file
            and moves this session's history into it once the other program lets go of it. Close the program that holds it (a second copy of
            Egress Desk, an SQLite tool) if this stays.
          </p>
        </div>
      )}
      {status?.degraded && !status.reopening && (
        <div className="notice warn-notice" role="status">
          <p>
            The history database could not be opened: {status.degraded}. History is kept in memory and is lost when the app closes. Check
            that the data folder is writable and has free space, then restart the app.
          </p>
        </div>
      )}
      {statusError && <ErrorNotice title="The history database's state could not be read" error={statusError} />}
      {error && <ErrorNotice title="The history setting was not saved" error={error} />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!actions.enabled} title={actions.reason}>
          Save history
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
    </form>
  );
}
