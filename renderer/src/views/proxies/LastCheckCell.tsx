/**
 * The Proxies table's "Last check" cell: a state dot, the latency, the
 * egress address the echo saw, and the last few latencies as a sparkline.
 * Reads one entry of the checks store, so a new result re-renders one row.
 */
import { checksKey, useChecks } from '../../stores/checks';
import { formatDateTime, formatLatency } from '../../format';
import type { Column } from './column';
import { Sparkline } from './Sparkline';
import './checks.css';

/**
 * The column's entry for columns.tsx's `allColumns`. Its cell is drawn by LastCheckCell (the row renders it for
 * this id), not from `text`: the checks live in their own store, not in the inventory's row. Not sortable.
 */
export const lastCheckColumn: Column = {
  id: 'lastCheck',
  header: 'Last check',
  min: 200,
  grow: 0.6,
  // Before Node, VMID and Age: whether a proxy works is what the table is read for (it stays at 1024 px, issue 23).
  priority: 3.5,
  missing: 'Running proxies with an address are checked every few minutes (Settings → Scheduled checks); empty until the first check.',
  text: () => '',
};

export function LastCheckCell({ clusterId, vmid }: { clusterId: string; vmid: number }) {
  const summary = useChecks((s) => s.latest[checksKey(clusterId, vmid)]);
  if (!summary) return <span className="last-check muted">not checked</span>;
  const { latest, trend } = summary;
  const when = formatDateTime(latest.at);
  const words = latest.ok
    ? `Works: ${formatLatency(latest.latencyMs)}${latest.egressAddress ? `, egress ${latest.egressAddress}` : ''}, checked ${when}`
    : `Fails: ${latest.problem ?? 'no answer'}, checked ${when}`;
  return (
    <span className="last-check" title={words}>
      <span className={`check-dot tone-${latest.ok ? 'ok' : 'bad'}`} role="img" aria-label={latest.ok ? 'works' : 'fails'} />
      {latest.ok ? (
        <>
          <span className="last-check-latency">{formatLatency(latest.latencyMs)}</span>
          {latest.egressAddress && <span className="last-check-egress mono">{latest.egressAddress}</span>}
        </>
      ) : (
        <span className="last-check-problem">{latest.httpStatus ? `HTTP ${latest.httpStatus}` : 'fails'}</span>
      )}
      <Sparkline values={trend} />
    </span>
  );
}
