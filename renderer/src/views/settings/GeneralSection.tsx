/**
 * Poll intervals, the proxy check URL and the cleanup grace, checked with the
 * shared settings schema before saving (the one main checks with): a refused
 * value is named next to its field, nothing is sent and "Saved." is not shown.
 */
import { AppSettings } from '../../../../shared/domain/profile';
import { DEFAULT_PROXY_CHECK_URL } from '../../../../shared/domain/proxy-check-url';
import { ErrorNotice, Field } from '../../components/common';
import { useActionsAvailable } from '../../stores/connection';
import { useSettings } from '../../stores/settings';
import { useSettingsDraft, type DraftCheck } from './settings-draft';

type Draft = Record<'healthSeconds' | 'inventorySeconds' | 'proxyCheckUrl' | 'cleanupGraceMinutes', string>;

const draftOf = (s: AppSettings): Draft => ({
  healthSeconds: String(s.pollIntervals.healthSeconds),
  inventorySeconds: String(s.pollIntervals.inventorySeconds),
  proxyCheckUrl: s.proxyCheckUrl,
  cleanupGraceMinutes: String(s.cleanupGraceMinutes),
});

/** An empty field reaches the schema as NaN, which it refuses in words ("must be a number"), never as a silent 0. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function checkGeneral(draft: Draft, settings: AppSettings): DraftCheck {
  const parsed = AppSettings.safeParse({
    ...settings,
    pollIntervals: { healthSeconds: numberOf(draft.healthSeconds), inventorySeconds: numberOf(draft.inventorySeconds) },
    proxyCheckUrl: draft.proxyCheckUrl,
    cleanupGraceMinutes: numberOf(draft.cleanupGraceMinutes),
  });
  return parsed.success ? { success: true, patch: parsed.data } : { success: false, issues: parsed.error.issues };
}

export function GeneralSection() {
  const loadError = useSettings((s) => s.error);
  const { settings, draft, problems, error, saved, edit, save } = useSettingsDraft(draftOf, {
    id: 'settings.general',
    label: 'Polling and checks',
  });
  const actions = useActionsAvailable();

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

  return (
    <form
      aria-labelledby="settings-general"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(checkGeneral);
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
