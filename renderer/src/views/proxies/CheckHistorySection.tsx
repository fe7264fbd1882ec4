/**
 * The drawer's "Scheduled checks" section: the proxy's own off switch, why
 * it is not checked when it is not, its expected exit (issue 24,
 * ExpectedExitField.tsx), its targets (CheckTargets.tsx), the last day's latencies as a sparkline
 * with the share that worked, and the latest checks as a table.
 */
import { useEffect, useState } from 'react';
import type { CheckEntry } from '../../../../shared/channels/checks';
import type { AppErrorValue } from '../../../../shared/errors';
import { ErrorNotice } from '../../components/common/ErrorNotice';
import { StateBadge } from '../../components/common/StateBadge';
import { DateTime } from '../../components/common/Time';
import { formatLatency } from '../../format';
import { useActionsAvailable } from '../../stores/connection';
import { checksKey, HISTORY_HOURS, useChecks } from '../../stores/checks';
import type { ProxyRow } from './rows';
import { Sparkline } from './Sparkline';
import { ExpectedExitField } from './ExpectedExitField';
import { CheckTargets } from './CheckTargets';
import './checks.css';

/** Rows in the table; the sparkline and the summary cover the whole day. */
const SHOWN = 10;

function resultWords(c: CheckEntry): string {
  if (c.ok) return c.egressAddress ? `works, egress ${c.egressAddress}` : 'works';
  return c.problem ?? `fails${c.httpStatus ? ` (HTTP ${c.httpStatus})` : ''}`;
}

export function CheckHistorySection({ row }: { row: ProxyRow }) {
  const key = checksKey(row.clusterId, row.vmid);
  const entry = useChecks((s) => s.histories[key]);
  const loadHistory = useChecks((s) => s.loadHistory);
  const setEnabled = useChecks((s) => s.setEnabled);
  const actions = useActionsAvailable();
  const [switchError, setSwitchError] = useState<AppErrorValue | undefined>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    void loadHistory(row.clusterId, row.vmid);
  }, [row.clusterId, row.vmid, loadHistory]);

  const history = entry?.value;
  const checks = history?.checks ?? [];
  const worked = checks.filter((c) => c.ok).length;
  const latencies = checks.map((c) => (c.ok && c.latencyMs !== undefined ? c.latencyMs : null));

  return (
    <section className="drawer-section" aria-label="Scheduled checks">
      <h3>Scheduled checks</h3>
      {entry?.error && <ErrorNotice error={entry.error} title="The check history could not be read" />}
      {history && (
        <>
          <label className="check-switch">
            <input
              type="checkbox"
              checked={history.enabled}
              disabled={saving || !actions.enabled}
              onChange={async (e) => {
                setSaving(true);
                setSwitchError(await setEnabled(row.clusterId, row.vmid, e.target.checked));
                setSaving(false);
              }}
            />{' '}
            Check this proxy every {history.intervalMinutes} minute{history.intervalMinutes === 1 ? '' : 's'}
          </label>
          {switchError && <ErrorNotice error={switchError} title="The switch could not be changed" />}
          {history.idleReason && <p className="muted">Not checked now: {history.idleReason}</p>}
          <ExpectedExitField clusterId={row.clusterId} vmid={row.vmid} history={history} />
          <p className="muted">
            Checked as {history.endpoint.protocol === 'socks5' ? 'SOCKS5' : 'HTTP'} on port {history.endpoint.port}: the protocol and port
            of the last Test (before any Test, the ones its user-data sets up, else HTTP on 3128).
          </p>
          <CheckTargets clusterId={row.clusterId} vmid={row.vmid} history={history} />
          {checks.length === 0 ? (
            <p>No check in the last {HISTORY_HOURS} hours yet.</p>
          ) : (
            <>
              <p>
                Last {HISTORY_HOURS} hours: {worked} of {checks.length} checks worked.
              </p>
              <div className="check-trend">
                <Sparkline values={latencies} width={240} height={40} />
              </div>
              <table className="check-history">
                <caption className="sr-only">The latest checks, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Result</th>
                    <th scope="col">Latency</th>
                    <th scope="col">By</th>
                  </tr>
                </thead>
                <tbody>
                  {checks
                    .slice(-SHOWN)
                    .reverse()
                    .map((c) => (
                      <tr key={`${c.at}-${c.origin}`}>
                        <td>
                          <DateTime at={c.at} />
                        </td>
                        <td>
                          <StateBadge state={c.ok ? 'ok' : 'failed'} label={c.ok ? 'ok' : 'failed'} /> {resultWords(c)}
                        </td>
                        <td>{c.ok ? formatLatency(c.latencyMs) : '—'}</td>
                        <td>{c.origin === 'manual' ? 'Test' : 'schedule'}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </>
          )}
        </>
      )}
      {!history && !entry?.error && <p>Reading the check history…</p>}
    </section>
  );
}
