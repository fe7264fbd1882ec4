/**
 * Poll intervals, the proxy check URL and the cleanup grace, checked with the
 * shared settings schema before saving (the one main checks with): a refused
 * value is named next to its field, nothing is sent and "Saved." is not shown.
 */
import { useEffect, useRef, useState } from 'react';
import { AppSettings } from '../../../../shared/domain/profile';
import { DEFAULT_PROXY_CHECK_URL } from '../../../../shared/domain/proxy-check-url';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice, Field } from '../../components/common';
import { useActionsAvailable } from '../../stores/connection';
import { useSettings } from '../../stores/settings';
import { useUnsavedGuard } from '../../stores/unsaved';

interface Draft {
  healthSeconds: string;
  inventorySeconds: string;
  proxyCheckUrl: string;
  cleanupGraceMinutes: string;
}

const draftOf = (s: AppSettings): Draft => ({
  healthSeconds: String(s.pollIntervals.healthSeconds),
  inventorySeconds: String(s.pollIntervals.inventorySeconds),
  proxyCheckUrl: s.proxyCheckUrl,
  cleanupGraceMinutes: String(s.cleanupGraceMinutes),
});

const sameDraft = (a: Draft, b: Draft) =>
  a.healthSeconds === b.healthSeconds &&
  a.inventorySeconds === b.inventorySeconds &&
  a.proxyCheckUrl === b.proxyCheckUrl &&
  a.cleanupGraceMinutes === b.cleanupGraceMinutes;

/** An empty field reaches the schema as NaN, which it refuses in words ("must be a number"), never as a silent 0. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

export function GeneralSection() {
  const settings = useSettings((s) => s.settings);
  const loadError = useSettings((s) => s.error);
  const [draft, setDraft] = useState<Draft>();
  const [problems, setProblems] = useState<Record<string, string>>({});
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
  useUnsavedGuard('settings.general', 'Polling and checks', dirty);

  if (!settings || !draft) {
    return (
      <section aria-labelledby="settings-general">
        <h2 id="settings-general">Polling and checks</h2>
        {loadError ? (
          <ErrorNotice title="The settings could not be loaded" error={loadError} onRetry={() => void useSettings.getState().reload()} />
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    );
  }

  const save = async () => {
    setSaved(false);
    const next = {
      ...settings,
      pollIntervals: { healthSeconds: numberOf(draft.healthSeconds), inventorySeconds: numberOf(draft.inventorySeconds) },
      proxyCheckUrl: draft.proxyCheckUrl,
      cleanupGraceMinutes: numberOf(draft.cleanupGraceMinutes),
    };
    const parsed = AppSettings.safeParse(next);
    if (!parsed.success) {
      setProblems(Object.fromEntries(parsed.error.issues.map((i) => [i.path[i.path.length - 1] as string, i.message])));
      return;
    }
    setProblems({});
    const answer = await useSettings.getState().update(parsed.data);
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
      aria-labelledby="settings-general"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 id="settings-general">Polling and checks</h2>
      <div className="field-row">
        <Field label="Health check every (seconds)" problem={problems.healthSeconds}>
          <input type="number" value={draft.healthSeconds} onChange={(e) => edit({ healthSeconds: e.target.value })} />
        </Field>
        <Field label="Inventory refresh every (seconds)" problem={problems.inventorySeconds}>
          <input type="number" value={draft.inventorySeconds} onChange={(e) => edit({ inventorySeconds: e.target.value })} />
        </Field>
      </div>
      <p className="muted">Clusters whose profile sets its own intervals keep them.</p>
      <Field
        label="Proxy check URL"
        problem={problems.proxyCheckUrl}
        help={`Fetched through a proxy by its Test action: an http:// or https:// URL, without a user name or password, that answers with the caller's address. Default: ${DEFAULT_PROXY_CHECK_URL}.`}
      >
        <input type="url" value={draft.proxyCheckUrl} onChange={(e) => edit({ proxyCheckUrl: e.target.value })} />
      </Field>
      <Field
        label="Cleanup grace (minutes)"
        problem={problems.cleanupGraceMinutes}
        help="Younger seeds and half-built proxies are never offered for cleanup."
      >
        <input type="number" value={draft.cleanupGraceMinutes} onChange={(e) => edit({ cleanupGraceMinutes: e.target.value })} />
      </Field>
      {error && <ErrorNotice title="The settings were not saved" error={error} />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!actions.enabled} title={actions.reason}>
          Save polling and checks
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
    </form>
  );
}
