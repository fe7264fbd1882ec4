/**
 * The Alerts view: every open alert and those of the last days, in the one
 * table (state, rule, target, raised, resolved, reason, hint), with
 * Acknowledge on each open one not yet acknowledged. What raises an alert,
 * and when it resolves, is main's (main/services/alerts/); this shows it.
 */
import { useMemo, useState } from 'react';
import type { AlertView } from '../../../../shared/channels/alerts';
import { alertRuleCatalogue } from '../../../../shared/domain/alert-rules';
import type { AppErrorValue } from '../../../../shared/errors';
import { DataTable, EmptyState, ErrorNotice, StateBadge, type DataColumn } from '../../components/common';
import { formatDateTime } from '../../format';
import { sortedAlerts, unacknowledgedCount, useAlerts } from '../../stores/alerts';
import { useActionsAvailable } from '../../stores/connection';
import { ViewFrame } from '../Placeholder';
import './alerts.css';

const ruleTitle = (rule: string) => alertRuleCatalogue.find((r) => r.id === rule)?.title ?? rule;

function stateOf(a: AlertView): { word: string; tone: 'bad' | 'warn' | 'ok' } {
  if (a.resolvedAt) return { word: 'resolved', tone: 'ok' };
  return a.acknowledgedAt ? { word: 'acknowledged', tone: 'warn' } : { word: 'open', tone: 'bad' };
}

function AcknowledgeButton({ alert, onError }: { alert: AlertView; onError: (e: AppErrorValue | undefined) => void }) {
  const acknowledge = useAlerts((s) => s.acknowledge);
  const actions = useActionsAvailable();
  const [busy, setBusy] = useState(false);
  if (alert.resolvedAt || alert.acknowledgedAt) return null;
  return (
    <button
      type="button"
      disabled={busy || !actions.enabled}
      title={actions.reason}
      aria-label={`Acknowledge: ${ruleTitle(alert.rule)}, ${alert.label}`}
      onClick={async () => {
        setBusy(true);
        onError(await acknowledge(alert.id));
        setBusy(false);
      }}
    >
      Acknowledge
    </button>
  );
}

export function AlertsView() {
  const alerts = useAlerts((s) => s.alerts);
  const loaded = useAlerts((s) => s.loaded);
  const loadError = useAlerts((s) => s.error);
  const interval = useAlerts((s) => s.checkIntervalMinutes);
  const [actionError, setActionError] = useState<AppErrorValue>();
  const rows = useMemo(() => sortedAlerts(alerts), [alerts]);
  const open = unacknowledgedCount(alerts);

  const columns = useMemo<DataColumn<AlertView>[]>(
    () => [
      {
        id: 'state',
        header: 'State',
        cell: (a) => <StateBadge state={stateOf(a).word} tone={stateOf(a).tone} />,
        sortValue: (a) => (a.resolvedAt ? 2 : a.acknowledgedAt ? 1 : 0),
        width: '7%',
      },
      { id: 'rule', header: 'Rule', cell: (a) => ruleTitle(a.rule), sortValue: (a) => ruleTitle(a.rule), width: '9%' },
      { id: 'target', header: 'Target', cell: (a) => a.label, rowHeader: true, sortValue: (a) => a.label, width: '13%' },
      { id: 'raised', header: 'Raised', cell: (a) => formatDateTime(a.raisedAt), sortValue: (a) => a.raisedAt, width: '9%' },
      {
        id: 'resolved',
        header: 'Resolved',
        cell: (a) => (a.resolvedAt ? formatDateTime(a.resolvedAt) : '—'),
        sortValue: (a) => a.resolvedAt,
        width: '9%',
        priority: 2,
      },
      { id: 'reason', header: 'Reason', cell: (a) => a.reason },
      { id: 'hint', header: 'What to do', cell: (a) => <span className="muted">{a.hint}</span>, priority: 3 },
      {
        id: 'ack',
        header: <span className="sr-only">Actions</span>,
        cell: (a) => <AcknowledgeButton alert={a} onError={setActionError} />,
        width: '13%',
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
      {actionError && <ErrorNotice title="The alert was not acknowledged" error={actionError} />}
      <DataTable
        label="Alerts"
        className="alerts-table"
        columns={columns}
        rows={rows}
        rowKey={(a) => String(a.id)}
        rowClassName={(a) => (a.resolvedAt ? 'muted' : undefined)}
        empty={
          loaded ? (
            <EmptyState title="No alerts">
              Egress Desk checks your proxies every {interval ?? 5} minutes, and watches your nodes, the seed storage and the templates.
              When something needs you, it shows here, as a notification, and on the webhooks you set in Settings.
            </EmptyState>
          ) : null
        }
      />
    </ViewFrame>
  );
}
