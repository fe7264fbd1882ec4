/**
 * The alert rules: each on or off, and the threshold of those that have one
 * (empty: the default). Checked with the shared schema before saving (the
 * one main checks with); main applies a change at once, and a rule switched
 * off resolves what it holds open.
 */
import {
  AlertRuleId,
  AlertRuleSettings,
  alertRuleCatalogue,
  defaultAlertThresholds,
  type AlertThresholdKey,
} from '../../../../shared/domain/alert-rules';
import type { AppSettings } from '../../../../shared/domain/profile';
import { tagProblem } from '../../../../shared/domain/vm-notes';
import { ErrorNotice, Field } from '../../components/common';
import { useActionsAvailable } from '../../stores/connection';
import { useSettingsDraft, type DraftCheck } from './settings-draft';

type Draft = Record<string, string>;
const thresholdKeys = Object.keys(defaultAlertThresholds) as AlertThresholdKey[];

const draftOf = (s: AppSettings): Draft => {
  const draft: Draft = {};
  for (const key of thresholdKeys) draft[key] = s.alertRules?.[key] === undefined ? '' : String(s.alertRules[key]);
  const off = new Set(s.alertRules?.disabled ?? []);
  for (const id of AlertRuleId.options) draft[`on:${id}`] = String(!off.has(id));
  draft.distinctExitTags = (s.alertRules?.distinctExitTags ?? []).join(', ');
  return draft;
};

/** Empty means the default; typed text reaches the schema as NaN, which it refuses in words. */
function checkRules(draft: Draft): DraftCheck {
  const next: Record<string, unknown> = {};
  for (const key of thresholdKeys) if (draft[key]!.trim() !== '') next[key] = Number(draft[key]);
  const disabled = AlertRuleId.options.filter((id) => draft[`on:${id}`] !== 'true');
  if (disabled.length > 0) next.disabled = disabled;
  // Issue 24: the tags whose proxies must each have their own exit, in Proxmox's tag syntax.
  const pools = (draft.distinctExitTags ?? '').split(/[\s,;]+/).filter((t) => t !== '');
  const badTag = pools.map(tagProblem).find((p) => p !== undefined);
  if (badTag) return { success: false, issues: [{ path: ['distinctExitTags'], message: `${badTag}.` }] };
  if (pools.length > 0) next.distinctExitTags = pools;
  const parsed = AlertRuleSettings.safeParse(next);
  return parsed.success ? { success: true, patch: { alertRules: parsed.data } } : { success: false, issues: parsed.error.issues };
}

export function AlertRulesSection() {
  const { settings, draft, problems, error, saved, edit, save } = useSettingsDraft(draftOf, {
    id: 'settings.alert-rules',
    label: 'Alert rules',
  });
  const actions = useActionsAvailable();
  if (!settings || !draft) return null;

  return (
    <form
      aria-labelledby="settings-alert-rules"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(checkRules);
      }}
    >
      <h2 id="settings-alert-rules">Alert rules</h2>
      <p className="muted">
        Each rule raises one alert per proxy, node or storage, notifies once, and resolves it when the condition clears. Leave a number
        empty for its default.
      </p>
      {alertRuleCatalogue.map((rule) => (
        <fieldset key={rule.id} className="alert-rule">
          <legend>{rule.title}</legend>
          <label className="check-switch">
            <input
              type="checkbox"
              checked={draft[`on:${rule.id}`] === 'true'}
              onChange={(e) => edit({ [`on:${rule.id}`]: String(e.target.checked) })}
            />{' '}
            On: {rule.explains}
          </label>
          {rule.threshold && (
            <Field
              label={`${rule.title}: threshold (${rule.unit})`}
              problem={problems[rule.threshold]}
              help={`Default ${defaultAlertThresholds[rule.threshold]} ${rule.unit}.`}
            >
              <input
                type="text"
                inputMode="numeric"
                placeholder={`${defaultAlertThresholds[rule.threshold]} (default)`}
                value={draft[rule.threshold]}
                onChange={(e) => edit({ [rule.threshold!]: e.target.value })}
              />
            </Field>
          )}
          {rule.id === 'egress-exit-shared' && (
            <Field
              label="Pools of distinct exits (tags)"
              problem={problems.distinctExitTags}
              help="Proxies carrying one of these Proxmox tags must each leave from their own address; separate tags with commas."
            >
              <input
                type="text"
                value={draft.distinctExitTags}
                spellCheck={false}
                onChange={(e) => edit({ distinctExitTags: e.target.value })}
              />
            </Field>
          )}
        </fieldset>
      ))}
      {error && <ErrorNotice title="The alert rules were not saved" error={error} />}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!actions.enabled} title={actions.reason}>
          Save rules
        </button>
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </div>
    </form>
  );
}
