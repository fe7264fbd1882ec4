/**
 * Proxmox's own history of a VM or a node (issue 15): CPU, memory, network and disk I/O for the hour, day,
 * week, month or year, read when opened (main caches each timeframe). A timeframe switch, a choice between
 * averages and peaks (Proxmox's AVERAGE and MAX), one uPlot graph per measure with a hover readout, and a
 * data summary table; loading, "no history yet" and error states with the hint.
 */
import { useEffect, useMemo, useState } from 'react';
import type { RrdCf, RrdSeries, RrdTimeframe } from '../../../../shared/channels/rrd';
import { formatBytes } from '../../format';
import { rrdKey, useRrd, type RrdTarget } from '../../stores/rrd';
import { EmptyState } from './EmptyState';
import { ErrorNotice } from './ErrorNotice';
import { RrdChart, type RrdLine } from './RrdChart';
import { bytesCeil, formatCpu, formatRate, latestAndMax, timeframeWords } from './rrd-format';
import type { YScale } from './trend-scales';

const TIMEFRAMES: { id: RrdTimeframe; label: string }[] = [
  { id: 'hour', label: 'Hour' },
  { id: 'day', label: 'Day' },
  { id: 'week', label: 'Week' },
  { id: 'month', label: 'Month' },
  { id: 'year', label: 'Year' },
];

interface Graph {
  title: string;
  lines: RrdLine[];
  format: (v: number) => string;
  yScale: YScale;
}

/** A bytes axis from zero to a binary round top at or over the highest value times `headroom`. */
function bytesScale(headroom: number, ...arrays: (number | null)[][]): YScale {
  let max = 0;
  for (const a of arrays) for (const v of a) if (v !== null && v > max) max = v;
  return { fixed: [0, bytesCeil(max * headroom)] };
}

/** The graphs a series draws: a node has no disk rates (Proxmox records none for it). */
export function graphsOf(s: RrdSeries): Graph[] {
  const graphs: Graph[] = [
    { title: 'CPU', lines: [{ label: 'CPU', values: s.cpu, colour: '--accent' }], format: formatCpu, yScale: { floor: 0.01, cap: 1 } },
    {
      title: 'Memory',
      lines: [
        { label: 'Used', values: s.mem, colour: '--ok' },
        { label: 'Size', values: s.maxmem, colour: '--muted', dashed: true },
      ],
      format: formatBytes,
      // Up to the memory size: used memory reads as a share of it.
      yScale: bytesScale(1, s.maxmem, s.mem),
    },
    {
      title: 'Network',
      lines: [
        { label: 'In', values: s.netin, colour: '--info' },
        { label: 'Out', values: s.netout, colour: '--warn' },
      ],
      format: formatRate,
      yScale: bytesScale(1.1, s.netin, s.netout),
    },
  ];
  if (s.diskread && s.diskwrite)
    graphs.push({
      title: 'Disk I/O',
      lines: [
        { label: 'Read', values: s.diskread, colour: '--info' },
        { label: 'Write', values: s.diskwrite, colour: '--warn' },
      ],
      format: formatRate,
      yScale: bytesScale(1.1, s.diskread, s.diskwrite),
    });
  return graphs;
}

function Summary({ graphs, timeframe, cf }: { graphs: Graph[]; timeframe: RrdTimeframe; cf: RrdCf }) {
  return (
    <details className="rrd-summary">
      <summary>Data summary</summary>
      <table className="facts-table">
        <caption className="sr-only">
          {cf === 'MAX' ? 'Peaks' : 'Averages'} over {timeframeWords[timeframe]}
        </caption>
        <thead>
          <tr>
            <th scope="col">Measure</th>
            <th scope="col">Latest</th>
            <th scope="col">Average</th>
            <th scope="col">Highest</th>
          </tr>
        </thead>
        <tbody>
          {graphs.flatMap((g) =>
            g.lines.map((l) => {
              const s = latestAndMax(l.values);
              return (
                <tr key={`${g.title}/${l.label}`}>
                  <th scope="row">{g.title === l.label ? g.title : `${g.title} ${l.label.toLowerCase()}`}</th>
                  <td>{s ? g.format(s.latest) : '—'}</td>
                  <td>{s ? g.format(s.mean) : '—'}</td>
                  <td>{s ? g.format(s.max) : '—'}</td>
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
    </details>
  );
}

export function RrdGraphs({ target, title = 'History' }: { target: RrdTarget; title?: string }) {
  const [timeframe, setTimeframe] = useState<RrdTimeframe>('hour');
  const [cf, setCf] = useState<RrdCf>('AVERAGE');
  const key = rrdKey(target, timeframe, cf);
  const entry = useRrd((s) => s.entries[key]);
  const load = useRrd((s) => s.load);
  // Read when opened, and on every switch; main answers from its cache while the data is fresh.
  useEffect(() => {
    void load(target, timeframe, cf);
    // The key names the target, timeframe and cf: a new object for the same target asks nothing.
  }, [key, load]);
  const series = entry?.series;
  const graphs = useMemo(() => (series ? graphsOf(series) : []), [series]);
  const what = target.kind === 'vm' ? 'this VM' : `node ${target.node}`;

  return (
    <section className="drawer-section rrd-graphs" aria-label={`${title}: graphs from Proxmox`}>
      <h3>{title}</h3>
      <div className="rrd-controls">
        <div role="group" aria-label="Timeframe" className="segmented">
          {TIMEFRAMES.map((t) => (
            <button key={t.id} type="button" aria-pressed={t.id === timeframe} onClick={() => setTimeframe(t.id)}>
              {t.label}
            </button>
          ))}
        </div>
        <label className="inline-check">
          <input type="checkbox" checked={cf === 'MAX'} onChange={(e) => setCf(e.target.checked ? 'MAX' : 'AVERAGE')} /> Peaks instead of
          averages
        </label>
      </div>
      {entry?.error ? (
        <ErrorNotice error={entry.error} title="The graphs could not be loaded" onRetry={() => void load(target, timeframe, cf)} />
      ) : !series ? (
        <p role="status" className="muted">
          Loading {timeframeWords[timeframe]} of {what} from Proxmox…
        </p>
      ) : series.empty ? (
        <EmptyState title="No history yet">{series.emptyReason}</EmptyState>
      ) : (
        <>
          <div className="rrd-grid">
            {graphs.map((g) => (
              <RrdChart
                key={g.title}
                title={g.title}
                times={series.times}
                lines={g.lines}
                format={g.format}
                timeframe={timeframe}
                yScale={g.yScale}
              />
            ))}
          </div>
          {!series.diskread && <p className="muted">Proxmox records no disk I/O rates for a node.</p>}
          <Summary graphs={graphs} timeframe={timeframe} cf={cf} />
        </>
      )}
    </section>
  );
}
