/**
 * The Alerts view: every open alert and those of the last days in the one
 * table (state, rule and target, the target a link to the proxy's drawer or
 * the node's page; raised and resolved; reason and what to do; actions),
 * filtered by words, state and rule; Acknowledge and "Snooze or tune" on each
 * row; then the tuning main keeps (quiet targets, per-target overrides, the
 * hold-down per rule) and the webhooks' last deliveries. What raises an alert,
 * when it resolves and what a snooze or an override does is main's
 * (main/services/alerts/); this shows it and asks for changes.
 */
import { useMemo, useState } from 'react';
import type { AlertView } from '../../../../shared/channels/alerts';
import { alertRuleCatalogue, alertRuleTitle as ruleTitle, type AlertRuleId } from '../../../../shared/domain/alert-rules';
import type { AppErrorValue } from '../../../../shared/errors';
import { DataTable, EmptyState, ErrorNotice, SearchInput, StateBadge, Toolbar, type DataColumn } from '../../components/common';
import { sortedAlerts, unacknowledgedCount, useAlerts } from '../../stores/alerts';
import { useActionsAvailable } from '../../stores/connection';
import { ViewFrame } from '../Placeholder';
import { alertTime } from './alert-time';
import { AlertTuningSections, WebhookDeliveries } from './AlertTuningSections';
import { TargetLink } from './TargetLink';
import { TuneDialog } from './TuneDialog';
import './alerts.css';

type StateWord = 'open' | 'acknowledged' | 'resolved';

function stateOf(a: AlertView): { word: StateWord; tone: 'bad' | 'warn' | 'ok' } {
  if (a.resolvedAt) return { word: 'resolved', tone: 'ok' };
  return a.acknowledgedAt ? { word: 'acknowledged', tone: 'warn' } : { word: 'open', tone: 'bad' };
}

function RowActions({ alert, onError, onTune }: { alert: AlertView; onError: (e: AppErrorValue | undefined) => void; onTune: () => void }) {
  const acknowledge = useAlerts((s) => s.acknowledge);
  const actions = useActionsAvailable();
  const [busy, setBusy] = useState(false);
  const name = `${ruleTitle(alert.rule)}, ${alert.label}`;
  return (
    <div className="alert-actions">
      {!alert.resolvedAt && !alert.acknowledgedAt && (
        <button
          type="button"
          disabled={busy || !actions.enabled}
          title={actions.reason}
          aria-label={`Acknowledge: ${name}`}
          onClick={async () => {
            setBusy(true);
            onError(await acknowledge(alert.id));
            setBusy(false);
          }}
        >
          Acknowledge
        </button>
      )}
      <button
        type="button"
        disabled={!actions.enabled}
        title={actions.reason}
        aria-label={`Snooze or tune: ${alert.label}`}
        onClick={onTune}
      >
        Snooze or tune…
      </button>
    </div>
  );
}

interface Filter {
  text: string;
  state: StateWord | '';
  rule: AlertRuleId | '';
}

function matches(a: AlertView, f: Filter): boolean {
  if (f.state && stateOf(a).word !== f.state) return false;
  if (f.rule && a.rule !== f.rule) return false;
  const words = f.text.trim().toLowerCase();
  if (!words) return true;
  const text = `${ruleTitle(a.rule)} ${a.label} ${a.reason} ${a.hint}`.toLowerCase();
  return words.split(/\s+/).every((w) => text.includes(w));
}

export function AlertsView() {
  const alerts = useAlerts((s) => s.alerts);
  const loaded = useAlerts((s) => s.loaded);
  const loadError = useAlerts((s) => s.error);
  const interval = useAlerts((s) => s.checkIntervalMinutes);
  const [actionError, setActionError] = useState<AppErrorValue>();
  const [filter, setFilter] = useState<Filter>({ text: '', state: '', rule: '' });
  const [tuning, setTuning] = useState<AlertView>();
  const all = useMemo(() => sortedAlerts(alerts), [alerts]);
  const rows = useMemo(() => all.filter((a) => matches(a, filter)), [all, filter]);
  const open = unacknowledgedCount(alerts);

  const columns = useMemo<DataColumn<AlertView>[]>(
    () => [
      {
        id: 'alert',
        header: 'Alert',
        rowHeader: true,
        // The state first (a row reads "open Egress failing proxy …"), then the rule and its target, stacked.
        cell: (a) => (
          <>
            <StateBadge state={stateOf(a).word} tone={stateOf(a).tone} />
            <span className="alert-rule">{ruleTitle(a.rule)}</span>
            <TargetLink alert={a} />
          </>
        ),
        sortValue: (a) => `${a.resolvedAt ? 2 : a.acknowledgedAt ? 1 : 0} ${ruleTitle(a.rule)} ${a.label}`,
        width: '30%',
      },
      {
        id: 'raised',
        header: 'Raised',
        cell: (a) => (
          <>
            <span className="alert-time">{alertTime(a.raisedAt)}</span>
            {a.resolvedAt && <span className="alert-time muted">resolved {alertTime(a.resolvedAt)}</span>}
          </>
        ),
        sortValue: (a) => a.raisedAt,
        width: '9.5rem',
      },
      {
        id: 'details',
        header: 'Reason and what to do',
        cell: (a) => (
          <>
            <span className="alert-reason">{a.reason}</span>
            <span className="alert-hint muted">What to do: {a.hint}</span>
          </>
        ),
      },
      {
        id: 'actions',
        header: <span className="sr-only">Actions</span>,
        cell: (a) => <RowActions alert={a} onError={setActionError} onTune={() => setTuning(a)} />,
        width: '9.5rem',
      },
    ],
    [],
  );

  return (
    <ViewFrame title="Alerts">
      <p className="muted" role="status">
        {loaded
          ? open === 0
            ? 'Nothing needs you now.'
            : `${open} open alert${open === 1 ? '' : 's'} not yet acknowledged.`
          : 'Loading alerts…'}
      </p>
      {loadError && (
        <ErrorNotice title="The alerts could not be read" error={loadError} onRetry={() => void useAlerts.getState().reload()} />
      )}
      {actionError && <ErrorNotice title="The alert was not changed" error={actionError} />}
      <WebhookDeliveries />
      {all.length > 0 && (
        <Toolbar label="Alert filters">
          <SearchInput label="Filter alerts" value={filter.text} onChange={(text) => setFilter((f) => ({ ...f, text }))} />
          <label className="inline-field">
            State
            <select
              aria-label="State"
              value={filter.state}
              onChange={(e) => setFilter((f) => ({ ...f, state: e.target.value as Filter['state'] }))}
            >
              <option value="">Any state</option>
              <option value="open">Open</option>
              <option value="acknowledged">Acknowledged</option>
              <option value="resolved">Resolved</option>
            </select>
          </label>
          <label className="inline-field">
            Rule
            <select
              aria-label="Rule"
              value={filter.rule}
              onChange={(e) => setFilter((f) => ({ ...f, rule: e.target.value as Filter['rule'] }))}
            >
              <option value="">Any rule</option>
              {alertRuleCatalogue.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.title}
                </option>
              ))}
            </select>
          </label>
          <span className="muted" role="status" aria-label="Alerts shown">
            {rows.length === all.length ? `${all.length} shown` : `${rows.length} of ${all.length} shown`}
          </span>
        </Toolbar>
      )}
      <DataTable
        label="Alerts"
        className="alerts-table"
        columns={columns}
        rows={rows}
        rowKey={(a) => String(a.id)}
        rowClassName={(a) => (a.resolvedAt ? 'muted' : undefined)}
        empty={
          loaded ? (
            all.length > 0 ? (
              <p className="muted">No alert matches the filter.</p>
            ) : (
              <EmptyState title="No alerts">
                Egress Desk checks your proxies every {interval ?? 5} minutes, and watches your nodes, the seed storage and the templates.
                When something needs you, it shows here, as a notification, and on the webhooks you set in Settings.
              </EmptyState>
            )
          ) : null
        }
      />
      <AlertTuningSections />
      {tuning && <TuneDialog alert={tuning} onClose={() => setTuning(undefined)} />}
    </ViewFrame>
  );
}
