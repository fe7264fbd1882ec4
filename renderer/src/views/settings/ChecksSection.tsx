/**
 * Scheduled egress checks: on or off, how often, how many at once, whether
 * to hold them on battery, and which clusters are left out. Checked with the
 * shared schema before saving (the one main checks with); main follows a
 * saved change at once (a new interval moves every proxy to its new phase).
 */
import { AppSettings } from '../../../../shared/domain/profile';
import { ErrorNotice, Field } from '../../components/common';
import { useActionsAvailable } from '../../stores/connection';
import { clustersOf, useProfiles } from '../../stores/profiles';
import { useSettingsDraft, type DraftCheck } from './settings-draft';
import '../proxies/checks.css';

/** The defaults main uses for an absent field (main/services/checks/check-settings.ts). */
const DEFAULT_INTERVAL = 5;
const DEFAULT_CONCURRENCY = 4;

type Draft = { enabled: string; interval: string; concurrency: string; pauseOnBattery: string; offClusters: string };

const draftOf = (s: AppSettings): Draft => ({
  enabled: String(s.checksEnabled ?? true),
  interval: s.checkIntervalMinutes === undefined ? '' : String(s.checkIntervalMinutes),
  concurrency: s.checkConcurrency === undefined ? '' : String(s.checkConcurrency),
  pauseOnBattery: String(s.pauseChecksOnBattery ?? false),
  offClusters: [...(s.checksOffClusters ?? [])].sort().join('\n'),
});

const ChecksFields = AppSettings.pick({
  checksEnabled: true,
  checkIntervalMinutes: true,
  checkConcurrency: true,
  pauseChecksOnBattery: true,
  checksOffClusters: true,
});

/**
 * Empty means the default, sent as its number (an absent field would leave a saved value in place); text reaches
 * the schema as NaN, which it refuses in words.
 */
function checkDraft(draft: Draft): DraftCheck {
  const parsed = ChecksFields.safeParse({
    checksEnabled: draft.enabled === 'true',
    checkIntervalMinutes: draft.interval.trim() === '' ? DEFAULT_INTERVAL : Number(draft.interval),
    checkConcurrency: draft.concurrency.trim() === '' ? DEFAULT_CONCURRENCY : Number(draft.concurrency),
    pauseChecksOnBattery: draft.pauseOnBattery === 'true',
    checksOffClusters: draft.offClusters === '' ? [] : draft.offClusters.split('\n'),
  });
  return parsed.success ? { success: true, patch: parsed.data } : { success: false, issues: parsed.error.issues };
}

const problemKey: Record<string, keyof Draft> = { checkIntervalMinutes: 'interval', checkConcurrency: 'concurrency' };

export function ChecksSection() {
  const { settings, draft, problems, error, saved, edit, save } = useSettingsDraft(draftOf, {
    id: 'settings.checks',
    label: 'Scheduled checks',
  });
  const clusters = clustersOf(useProfiles((s) => s.list));
  const actions = useActionsAvailable();
  if (!settings || !draft) return null;
  const off = new Set(draft.offClusters === '' ? [] : draft.offClusters.split('\n'));
  const toggleCluster = (id: string, checked: boolean) => {
    const next = new Set(off);
    if (checked) next.delete(id);
    else next.add(id);
    edit({ offClusters: [...next].sort().join('\n') });
  };
  const problemOf = (key: keyof Draft) => Object.entries(problems).find(([k]) => (problemKey[k] ?? k) === key)?.[1];

  return (
    <form
      aria-labelledby="settings-checks"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(checkDraft);
      }}
    >
      <h2 id="settings-checks">Scheduled checks</h2>
      <p className="muted">
        Every running proxy is checked through itself: the app fetches the proxy check URL (Polling and checks, above) through it and
        records whether it worked, how long it took and the address the URL saw. Checks are spread over the interval, never all at once.
      </p>
      <label className="check-switch">
        <input type="checkbox" checked={draft.enabled === 'true'} onChange={(e) => edit({ enabled: String(e.target.checked) })} /> Check
        proxies on a schedule
      </label>
      <Field label="Every (minutes)" problem={problemOf('interval')} help={`1–1440, default ${DEFAULT_INTERVAL}.`}>
        <input
          type="text"
          inputMode="numeric"
          placeholder={`${DEFAULT_INTERVAL} (default)`}
          value={draft.interval}
          onChange={(e) => edit({ interval: e.target.value })}
        />
      </Field>
      <Field label="Checks at once" problem={problemOf('concurrency')} help={`1–32, default ${DEFAULT_CONCURRENCY}. Across every cluster.`}>
        <input
          type="text"
          inputMode="numeric"
          placeholder={`${DEFAULT_CONCURRENCY} (default)`}
          value={draft.concurrency}
          onChange={(e) => edit({ concurrency: e.target.value })}
        />
      </Field>
      <label className="check-switch">
        <input
          type="checkbox"
          checked={draft.pauseOnBattery === 'true'}
          onChange={(e) => edit({ pauseOnBattery: String(e.target.checked) })}
        />{' '}
        Pause checks while this computer runs on battery
      </label>
      {clusters.length > 0 && (
        <fieldset>
          <legend>Clusters checked</legend>
          {clusters.map((c) => (
            <label key={c.id} className="check-switch">
              <input type="checkbox" checked={!off.has(c.id)} onChange={(e) => toggleCluster(c.id, e.target.checked)} /> {c.name}
            </label>
          ))}
        </fieldset>
      )}
      {error && <ErrorNotice title="The check settings were not saved" error={error} />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!actions.enabled} title={actions.reason}>
          Save checks
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
    </form>
  );
}
