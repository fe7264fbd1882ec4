/**
 * One node as a compact row, the way a dashboard shows a cluster at a
 * glance: health dot, name (a link to the node's page in Nodes) and reason,
 * then CPU, memory and API latency, each as its latest value and a
 * sparkline of the last hour. A node that is not ready says why and what
 * to do on a line of its own. A thin strip along the bottom shows the
 * hour's reason changes.
 */
import type { HealthPoint, NodeHealthHistory } from '../../../../shared/channels/health';
import { HealthDot, StateBadge, Trend, usageLevel } from '../../components/common';
import { formatBytes, formatDuration, formatLatency, formatPercent, formatRelativeTime } from '../../format';
import { useUi } from '../../stores/ui';
import { ReasonStrip } from './ReasonStrip';
import { reasonBadge, reasonWords } from './reason-words';

export interface NodeRowProps {
  clusterId: string;
  node: string;
  health: NodeHealthHistory | undefined;
  now: number;
}

const seconds = (p: HealthPoint) => Date.parse(p.at) / 1000;
const memShare = (p: { memBytes?: number; maxmemBytes?: number }, fallbackMax?: number) => {
  const max = p.maxmemBytes ?? fallbackMax;
  return p.memBytes !== undefined && max ? p.memBytes / max : null;
};

/**
 * A metric's latest value; a share (CPU, memory) reads as a meter. While it is
 * unknown (the node unreachable) it is no meter, which must have a value: the
 * label and the words are read as text.
 */
function Reading({ label, share, fraction, main, sub }: { label: string; share?: boolean; fraction?: number; main: string; sub: string }) {
  const known = fraction !== undefined && Number.isFinite(fraction);
  const meter =
    share && known
      ? {
          role: 'meter',
          'aria-label': label,
          'aria-valuemin': 0,
          'aria-valuemax': 100,
          'aria-valuenow': Math.round(Math.min(1, Math.max(0, fraction)) * 100),
          'aria-valuetext': `${main} ${sub}`,
        }
      : {};
  return (
    <div className={`reading${share ? ` usage-${usageLevel(fraction)}` : ''}`} {...meter}>
      {share && !known && <span className="sr-only">{label}: </span>}
      <span className="reading-main">{main}</span>
      <span className="reading-sub">{sub}</span>
    </div>
  );
}

function Metric({ children, reading }: { children: React.ReactNode; reading: React.ReactNode }) {
  return (
    <div className="metric">
      {reading}
      <div className="metric-chart">{children}</div>
    </div>
  );
}

export function NodeRow({ clusterId, node, health, now }: NodeRowProps) {
  const openNode = useUi((s) => s.openNode);
  const latest = health?.latest ?? null;
  const history = health?.history ?? [];
  const level = !latest ? 'unknown' : latest.ready ? 'ok' : latest.reason === 'SecretMissing' ? 'unknown' : 'bad';
  const words = latest ? reasonWords[latest.reason] : 'not checked yet';
  const badge = latest ? reasonBadge(latest) : { state: 'pending', label: 'Not checked yet', tone: 'neutral' as const };
  const times = history.map(seconds);
  const cpu = latest?.cpu;
  const mem = latest ? (memShare(latest) ?? undefined) : undefined;
  const d = latest?.details ?? {};
  const templates = d.templates ? `${d.templates.replace('/', ' of ')} templates` : undefined;
  const seeds = d.isoStorage ? `seeds on ${d.isoStorage}${d.isoStorageAvailGiB ? `, ${d.isoStorageAvailGiB} GiB free` : ''}` : undefined;
  const version = d.pveVersion ? `PVE ${d.pveVersion}` : undefined;
  const uptime = latest?.uptimeSeconds !== undefined ? `up ${formatDuration(latest.uptimeSeconds)}` : undefined;

  return (
    <article className={`node-row level-${level}`} aria-label={`Node ${node}`}>
      <div className="node-name">
        <div className="node-name-line">
          <HealthDot level={level} label={`${node}: ${words}`} />
          <button
            type="button"
            className="link-button node-link"
            title={`Open ${node} in Nodes`}
            onClick={() => openNode({ clusterId, node })}
          >
            {node}
          </button>
          <StateBadge {...badge} />
        </div>
        {latest && (
          <p className="node-sub" title={[version, d.kernel && `kernel ${d.kernel}`, seeds, templates].filter(Boolean).join('\n')}>
            {[version, uptime].filter(Boolean).join(' · ') || '—'}
            <br />
            {[templates && `${templates.replace(' templates', '')} configured`, seeds].filter(Boolean).join(' · ') || '—'}
          </p>
        )}
      </div>
      <Metric
        reading={
          <Reading
            label={`CPU of ${node}`}
            share
            fraction={cpu}
            main={formatPercent(cpu)}
            sub={latest?.maxcpu ? `of ${latest.maxcpu} cores` : 'CPU'}
          />
        }
      >
        <Trend
          compact
          label={`CPU of ${node}, last hour`}
          times={times}
          series={[{ label: 'CPU', values: history.map((p) => p.cpu ?? null), colour: '--accent' }]}
          format={(v) => formatPercent(v)}
          yScale={{ floor: 0.1, cap: 1 }}
          now={now}
          height={50}
        />
      </Metric>
      <Metric
        reading={
          <Reading
            label={`Memory of ${node}`}
            share
            fraction={mem}
            main={mem === undefined ? '—' : formatPercent(mem)}
            sub={latest?.maxmemBytes ? `${formatBytes(latest.memBytes)} of ${formatBytes(latest.maxmemBytes)}` : 'memory'}
          />
        }
      >
        <Trend
          compact
          label={`Memory of ${node}, last hour`}
          times={times}
          series={[{ label: 'memory', values: history.map((p) => memShare(p, latest?.maxmemBytes)), colour: '--info' }]}
          format={(v) => formatPercent(v)}
          yScale={{ fixed: [0, 1] }}
          now={now}
          height={50}
        />
      </Metric>
      <Metric
        reading={
          <Reading
            label={`API latency of ${node}`}
            main={latest ? formatLatency(latest.latencyMs) : '—'}
            sub={latest ? formatRelativeTime(latest.checkedAt, Math.max(now, Date.parse(latest.checkedAt))) : 'not checked'}
          />
        }
      >
        <Trend
          compact
          label={`API latency of ${node}, last hour`}
          times={times}
          series={[{ label: 'latency', values: history.map((p) => p.latencyMs), colour: '--warn' }]}
          format={formatLatency}
          yScale={{ floor: 10 }}
          now={now}
          height={50}
        />
      </Metric>
      {latest && !latest.ready && (
        <div className="node-problem">
          {latest.message && <p className="node-message">{latest.message}</p>}
          <p className="node-hint">What to do: {latest.hint}</p>
        </div>
      )}
      <ReasonStrip node={node} points={history} now={now} />
    </article>
  );
}
