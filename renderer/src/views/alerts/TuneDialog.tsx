/**
 * "Snooze or tune" for one alert's target: snooze it for a time or mute it
 * until unmuted (main acknowledges its open alerts and raises nothing new
 * for it until then), or give it its own settings over its rules' (an
 * override: a rule off for this target, a hold-down of its own). Main checks
 * and keeps both (main/services/alerts/tuning.ts); this only asks.
 */
import { useState } from 'react';
import type { AlertOverride, AlertView } from '../../../../shared/channels/alerts';
import { alertRuleTitle as ruleTitle, rulesFor } from '../../../../shared/domain/alert-rules';
import type { AppErrorValue } from '../../../../shared/errors';
import { Dialog, ErrorNotice } from '../../components/common';
import { useAlerts } from '../../stores/alerts';

const SNOOZES: { label: string; minutes: number | undefined }[] = [
  { label: '1 hour', minutes: 60 },
  { label: '8 hours', minutes: 480 },
  { label: '1 day', minutes: 1440 },
  { label: '1 week', minutes: 10_080 },
  { label: 'Until I unmute it', minutes: undefined },
];

const sameTarget = (o: { clusterId: string; target: string }, a: { clusterId: string; target: string }) =>
  o.clusterId === a.clusterId && o.target === a.target;

export function TuneDialog({ alert, onClose }: { alert: AlertView; onClose: () => void }) {
  const tuning = useAlerts((s) => s.tuning);
  const snooze = useAlerts((s) => s.snooze);
  const setTuning = useAlerts((s) => s.setTuning);
  const existing = tuning?.overrides.find((o) => sameTarget(o, alert));
  const rules = rulesFor(alert.target);
  const [choice, setChoice] = useState(0);
  const [off, setOff] = useState<Set<string>>(new Set(existing?.disabled ?? []));
  const [minutes, setMinutes] = useState(existing?.holdDownMinutes !== undefined ? String(existing.holdDownMinutes) : '');
  const [error, setError] = useState<AppErrorValue>();
  const [busy, setBusy] = useState(false);
  const minutesValue = minutes.trim() === '' ? undefined : Number(minutes);
  const minutesProblem =
    minutesValue !== undefined && (!Number.isInteger(minutesValue) || minutesValue < 0 || minutesValue > 10_080)
      ? 'A whole number of minutes, 0 to 10080 (a week); empty keeps the rule’s.'
      : undefined;
  const target = { clusterId: alert.clusterId, target: alert.target, label: alert.label };

  async function run(change: () => Promise<AppErrorValue | undefined>) {
    setBusy(true);
    const problem = await change();
    setBusy(false);
    if (problem) setError(problem);
    else onClose();
  }

  function saveOverride(remove: boolean) {
    const others = (tuning?.overrides ?? []).filter((o) => !sameTarget(o, alert));
    const mine: AlertOverride = {
      ...target,
      ...(off.size > 0 ? { disabled: rules.filter((r) => off.has(r)) } : {}),
      ...(minutesValue !== undefined ? { holdDownMinutes: minutesValue } : {}),
    };
    return run(() => setTuning({ holdDownMinutes: tuning?.holdDownMinutes ?? {}, overrides: remove ? others : [...others, mine] }));
  }

  return (
    <Dialog
      title={`Snooze or tune: ${alert.label}`}
      onClose={onClose}
      footer={
        <button type="button" onClick={onClose}>
          Close
        </button>
      }
    >
      {error && <ErrorNotice title="Nothing was changed" error={error} />}
      <fieldset className="tune-group">
        <legend>Snooze</legend>
        <p className="muted">
          No new alert, notice or webhook for {alert.label} until then; its open alerts are acknowledged. What still holds when the snooze
          ends is raised then.
        </p>
        <div className="tune-row">
          <label className="inline-field">
            Snooze for
            <select value={choice} onChange={(e) => setChoice(Number(e.target.value))}>
              {SNOOZES.map((s, i) => (
                <option key={s.label} value={i}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => {
              const minutes = SNOOZES[choice]!.minutes;
              void run(() => snooze({ ...target, ...(minutes !== undefined ? { minutes } : {}) }));
            }}
          >
            Snooze
          </button>
        </div>
      </fieldset>
      <fieldset className="tune-group">
        <legend>This target's own settings</legend>
        <p className="muted">Over the rules' settings, for {alert.label} only. A rule unticked raises nothing for it.</p>
        {rules.map((r) => (
          <label key={r} className="checkbox-field">
            <input
              type="checkbox"
              checked={!off.has(r)}
              onChange={(e) =>
                setOff((s) => {
                  const next = new Set(s);
                  if (e.target.checked) next.delete(r);
                  else next.add(r);
                  return next;
                })
              }
            />
            {ruleTitle(r)}
          </label>
        ))}
        <label className="inline-field">
          Only after (minutes)
          <input
            type="number"
            min={0}
            max={10_080}
            inputMode="numeric"
            placeholder="rule's"
            value={minutes}
            aria-invalid={minutesProblem ? true : undefined}
            onChange={(e) => setMinutes(e.target.value)}
          />
        </label>
        {minutesProblem && <p className="field-problem">{minutesProblem}</p>}
        <div className="tune-row">
          <button type="button" disabled={busy || minutesProblem !== undefined} onClick={() => void saveOverride(false)}>
            Save override
          </button>
          {existing && (
            <button type="button" disabled={busy} onClick={() => void saveOverride(true)}>
              Remove override
            </button>
          )}
        </div>
      </fieldset>
    </Dialog>
  );
}
