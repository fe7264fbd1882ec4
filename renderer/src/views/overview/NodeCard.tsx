/**
 * One node: its health reason in words (red when it is not ready, with the
 * fix), the facts the check gathered, CPU and memory, and the last hour of
 * latency and reason changes.
 */
import type { NodeHealthHistory } from '../../../../shared/channels/health';
import { HealthDot, StateBadge, Trend, UsageMeter } from '../../components/common';
import { formatBytes, formatLatency, formatPercent, formatRelativeTime } from '../../format';
import { ReasonStrip } from './ReasonStrip';
import { reasonWords } from './reason-words';

export interface NodeCardProps {
  node: string;
  health: NodeHealthHistory | undefined;
  now: number;
}

function seedStorageText(details: Record<string, string>): string {
  const name = details.isoStorage ?? '—';
  return details.isoStorageAvailGiB ? `${name}, ${details.isoStorageAvailGiB} GiB free` : name;
}

export function NodeCard({ node, health, now }: NodeCardProps) {
  const latest = health?.latest ?? null;
  if (!latest) {
    return (
      <article className="node-card level-unknown" aria-label={`Node ${node}`}>
        <header className="node-card-head">
          <HealthDot level="unknown" label={`${node}: not checked yet`} />
          <h3>{node}</h3>
          <StateBadge state="pending" label="Not checked yet" tone="neutral" />
        </header>
      </article>
    );
  }
  const level = latest.ready ? 'ok' : 'bad';
  const words = reasonWords[latest.reason];
  const history = health?.history ?? [];
  const cpu = latest.cpu;
  const mem = latest.maxmemBytes ? (latest.memBytes ?? 0) / latest.maxmemBytes : undefined;
  return (
    <article className={`node-card level-${level}`} aria-label={`Node ${node}`}>
      <header className="node-card-head">
        <HealthDot level={level} label={`${node}: ${words}`} />
        <h3>{node}</h3>
        <StateBadge state={latest.ready ? 'ready' : 'failed'} label={words} />
      </header>
      {!latest.ready && (
        <div className="node-problem">
          {latest.message && <p className="node-message">{latest.message}</p>}
          <p className="node-hint">What to do: {latest.hint}</p>
        </div>
      )}
      <dl className="facts node-facts">
        <dt>PVE version</dt>
        <dd>{latest.details.pveVersion ?? '—'}</dd>
        <dt>Kernel</dt>
        <dd>{latest.details.kernel ?? '—'}</dd>
        <dt>Seed storage</dt>
        <dd>{seedStorageText(latest.details)}</dd>
        <dt>Templates found</dt>
        <dd>{latest.details.templates ? `${latest.details.templates.replace('/', ' of ')} configured` : '—'}</dd>
        <dt>Checked</dt>
        <dd>
          {formatRelativeTime(latest.checkedAt, Math.max(now, Date.parse(latest.checkedAt)))}, {formatLatency(latest.latencyMs)}
        </dd>
      </dl>
      <UsageMeter
        label={`CPU of ${node}`}
        fraction={cpu}
        text={cpu === undefined ? 'CPU unknown' : `CPU ${formatPercent(cpu)}${latest.maxcpu ? ` of ${latest.maxcpu} cores` : ''}`}
      />
      <UsageMeter
        label={`Memory of ${node}`}
        fraction={mem}
        text={mem === undefined ? 'Memory unknown' : `${formatBytes(latest.memBytes)} of ${formatBytes(latest.maxmemBytes)}`}
      />
      <Trend
        label={`Latency of ${node}, last hour`}
        times={history.map((p) => Date.parse(p.at) / 1000)}
        series={[{ label: 'latency', values: history.map((p) => p.latencyMs), colour: '--accent' }]}
        format={formatLatency}
        height={80}
      />
      <ReasonStrip node={node} points={history} now={now} />
    </article>
  );
}
