/**
 * Below the Alerts table: the targets kept quiet (snoozed until a time, or
 * muted) with a way to end it, the per-target overrides with a way to remove
 * them, and the hold-down per rule ("only after N minutes"); above it, the
 * webhooks whose last delivery failed, in words with what to do. Main keeps
 * and applies all of it (main/services/alerts/); this shows and asks.
 */
import { useEffect, useState } from 'react';
import type { AlertTuning } from '../../../../shared/channels/alerts';
import { alertRuleCatalogue, alertRuleTitle as ruleTitle, type AlertRuleId } from '../../../../shared/domain/alert-rules';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common';
import { useAlerts } from '../../stores/alerts';
import { alertTime } from './alert-time';
import { TargetLink } from './TargetLink';

function QuietTargets({ tuning, onError }: { tuning: AlertTuning; onError: (e: AppErrorValue | undefined) => void }) {
  const unsnooze = useAlerts((s) => s.unsnooze);
  return (
    <section aria-labelledby="alerts-quiet" className="alerts-section">
      <h2 id="alerts-quiet">Quiet targets</h2>
      {tuning.snoozes.length === 0 ? (
        <p className="muted">Nothing is snoozed or muted. “Snooze or tune…” on an alert keeps its target quiet for a time.</p>
      ) : (
        <ul className="alerts-tuned">
          {tuning.snoozes.map((s) => (
            <li key={`${s.clusterId}/${s.target}`}>
              <TargetLink alert={s} />
              <span>{s.until ? `snoozed until ${alertTime(s.until)}` : 'muted until you unmute it'}</span>
              <button
                type="button"
                aria-label={`End the snooze of ${s.label}`}
                onClick={async () => onError(await unsnooze(s.clusterId, s.target))}
              >
                {s.until ? 'End snooze' : 'Unmute'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Overrides({ tuning, onError }: { tuning: AlertTuning; onError: (e: AppErrorValue | undefined) => void }) {
  const setTuning = useAlerts((s) => s.setTuning);
  return (
    <section aria-labelledby="alerts-overrides" className="alerts-section">
      <h2 id="alerts-overrides">Per-target overrides</h2>
      {tuning.overrides.length === 0 ? (
        <p className="muted">No target has settings of its own.</p>
      ) : (
        <ul className="alerts-tuned">
          {tuning.overrides.map((o) => (
            <li key={`${o.clusterId}/${o.target}`}>
              <TargetLink alert={o} />
              <span>
                {[
                  ...(o.disabled ?? []).map((r) => `${ruleTitle(r)} off`),
                  ...(o.holdDownMinutes !== undefined ? [`only after ${o.holdDownMinutes} min`] : []),
                ].join(', ') || 'as the rules say'}
              </span>
              <button
                type="button"
                aria-label={`Remove the override of ${o.label}`}
                onClick={async () =>
                  onError(
                    await setTuning({
                      holdDownMinutes: tuning.holdDownMinutes,
                      overrides: tuning.overrides.filter((x) => !(x.clusterId === o.clusterId && x.target === o.target)),
                    }),
                  )
                }
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function HoldDowns({ tuning, onError }: { tuning: AlertTuning; onError: (e: AppErrorValue | undefined) => void }) {
  const setTuning = useAlerts((s) => s.setTuning);
  const asText = (t: AlertTuning) =>
    Object.fromEntries(alertRuleCatalogue.map((r) => [r.id, t.holdDownMinutes[r.id] !== undefined ? String(t.holdDownMinutes[r.id]) : '']));
  const [draft, setDraft] = useState<Record<string, string>>(() => asText(tuning));
  const [saved, setSaved] = useState('');
  useEffect(() => setDraft(asText(tuning)), [tuning]);
  const problems = Object.values(draft).filter((v) => v.trim() !== '' && (!/^\d{1,5}$/.test(v.trim()) || Number(v) > 10_080));
  return (
    <section aria-labelledby="alerts-holddown" className="alerts-section">
      <h2 id="alerts-holddown">Hold-down</h2>
      <p className="muted">
        Raise a rule's alert only once its condition has held this many minutes. Empty or 0: as soon as the rule says.
      </p>
      <div className="alerts-holddowns">
        {alertRuleCatalogue.map((r) => (
          <label key={r.id} className="inline-field">
            <span>
              {r.title}
              <span className="sr-only">: only after (minutes)</span>
            </span>
            <input
              type="number"
              min={0}
              max={10_080}
              inputMode="numeric"
              placeholder="0"
              value={draft[r.id] ?? ''}
              onChange={(e) => setDraft((d) => ({ ...d, [r.id]: e.target.value }))}
            />
            <span aria-hidden="true" className="muted">
              min
            </span>
          </label>
        ))}
      </div>
      {problems.length > 0 && <p className="field-problem">Minutes are whole numbers from 0 to 10080 (a week).</p>}
      <div className="tune-row">
        <button
          type="button"
          disabled={problems.length > 0}
          onClick={async () => {
            const holdDownMinutes: Partial<Record<AlertRuleId, number>> = {};
            for (const r of alertRuleCatalogue)
              if ((draft[r.id] ?? '').trim() !== '' && Number(draft[r.id]) > 0) holdDownMinutes[r.id] = Number(draft[r.id]);
            const problem = await setTuning({ holdDownMinutes, overrides: tuning.overrides });
            onError(problem);
            setSaved(problem ? '' : 'Saved: the hold-downs are in force.');
          }}
        >
          Save hold-downs
        </button>
        <span role="status" className="muted">
          {saved}
        </span>
      </div>
    </section>
  );
}

export function AlertTuningSections() {
  const tuning = useAlerts((s) => s.tuning);
  const [error, setError] = useState<AppErrorValue>();
  if (!tuning) return null;
  return (
    <div className="alerts-tuning">
      {error && <ErrorNotice title="The tuning was not changed" error={error} />}
      <QuietTargets tuning={tuning} onError={setError} />
      <Overrides tuning={tuning} onError={setError} />
      <HoldDowns tuning={tuning} onError={setError} />
    </div>
  );
}

/** The webhooks whose alerts did not arrive (their last post in this run failed), in words with what to do. */
export function WebhookDeliveries() {
  const targets = useAlerts((s) => s.targets);
  const failing = targets.filter((t) => t.lastDelivery && !t.lastDelivery.ok);
  if (failing.length === 0) return null;
  return (
    <section aria-labelledby="alerts-deliveries" className="alerts-deliveries warn-notice">
      <h2 id="alerts-deliveries">Webhook deliveries</h2>
      <ul>
        {failing.map((t) => (
          <li key={t.id}>
            <strong>{t.name}</strong>: the last alert failed at {alertTime(t.lastDelivery!.at)}. {t.lastDelivery!.message}
            {t.lastDelivery!.hint ? ` What to do: ${t.lastDelivery!.hint}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
