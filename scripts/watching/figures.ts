/** bench:watching's figures for `npm run bench` (scripts/bench.ts), read from what it prints, and its section of docs/performance.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { MARKDOWN_BEGIN, MARKDOWN_END } from './markers';

const num = (re: RegExp, text: string): number | undefined => {
  const m = re.exec(text);
  return m ? Number(m[1]!) : undefined;
};
const fmt = (x: number | undefined) => (x === undefined ? 'not found' : String(x));

export function watchingFigures(out: string): { figure: string; value: string; goal: string; ratio?: number }[] {
  const ratio = (label: string) => num(new RegExp(`^ratio ${label} \\(every view open[^)]*\\) ([\\d.]+)`, 'm'), out);
  const busy = (label: string) => num(new RegExp(`^${label}: busiest node ([\\d.]+) requests/min`, 'm'), out);
  const pveUi = ratio('app/PVE-UI');
  const pulse = ratio('app/Pulse');
  const elsewhere = num(/^ratio app\/PVE-UI \(every view open, the open VM on another node[^)]*\) ([\d.]+)/m, out);
  const needless = [...out.matchAll(/^hidden (\S+ \S+) [\d.]+\/min in all: NO ALERT NEEDS IT/gm)].map((m) => m[1]!);
  return [
    { figure: 'app / Proxmox web UI, every view open (busiest node)', value: fmt(pveUi), goal: '<= 0.25', ratio: pveUi && pveUi / 0.25 },
    {
      figure: "app / Proxmox web UI, the open VM on another node than the URL's",
      value: fmt(elsewhere),
      goal: '<= 0.25',
      ratio: elsewhere && elsewhere / 0.25,
    },
    { figure: 'app / Pulse, every view open (busiest node)', value: fmt(pulse), goal: '<= 0.25', ratio: pulse && pulse / 0.25 },
    { figure: 'app, every view open: requests/min, busiest node', value: fmt(busy('app, every view open')), goal: 'report' },
    { figure: 'app, window hidden: requests/min, busiest node', value: fmt(busy('app, window hidden')), goal: 'report' },
    { figure: 'Proxmox web UI: requests/min, busiest node', value: fmt(busy('Proxmox web UI')), goal: 'report' },
    { figure: 'Pulse: requests/min, busiest node', value: fmt(busy('Pulse')), goal: 'report' },
    { figure: 'endpoints polled while hidden that no alert needs', value: needless.length ? needless.join(', ') : 'none', goal: 'none' },
  ];
}

/** The markdown bench:watching printed between its markers; empty when it did not run. */
export function watchingSection(out: string): string[] {
  const begin = out.indexOf(MARKDOWN_BEGIN);
  const end = out.indexOf(MARKDOWN_END);
  if (begin < 0 || end < begin) return [];
  return [
    ...out
      .slice(begin + MARKDOWN_BEGIN.length, end)
      .trim()
      .split('\n'),
    '',
  ];
}

/** Replaces the document's "## Cost of watching" section (up to the next "## " heading) with `section`, or appends it. */
export function spliceWatchingSection(file: string, section: string[]): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.indexOf('## Cost of watching');
  if (start < 0) {
    writeFileSync(file, [...lines, ...(lines.at(-1) === '' ? [] : ['']), ...section].join('\n'));
    return;
  }
  const next = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  writeFileSync(file, [...lines.slice(0, start), ...section, ...(next < 0 ? [] : lines.slice(next))].join('\n'));
}
