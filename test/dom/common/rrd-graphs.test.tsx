/**
 * The RRD graphs component (renderer/src/components/common/RrdGraphs.tsx) against a stubbed preload: it asks
 * when opened and on every timeframe switch, shows loading, the graphs with their text alternatives, the
 * "no history yet" state of a new VM and an error with its hint; the axes and the readout speak in units.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RrdSeries } from '../../../shared/channels/rrd';
import { createStubApi, type StubApi } from '../../support/stub-api';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the options as uPlot gets them, functions included
type Opts = any;
const made: { opts: Opts; data: unknown[] }[] = [];
const setCursor = vi.fn();
vi.mock('uplot', () => {
  class FakePlot {
    constructor(opts: Opts, data: unknown[]) {
      made.push({ opts, data });
    }
    bbox = { height: 300 };
    setCursor = setCursor;
    valToPos = (v: number) => v;
    setData = vi.fn();
    setSize = vi.fn();
    destroy = vi.fn();
  }
  return { default: FakePlot };
});

import { RrdGraphs } from '../../../renderer/src/components/common/RrdGraphs';
import { bytesCeil, formatCpu, formatRate, timeTick } from '../../../renderer/src/components/common/rrd-format';
import { useRrd } from '../../../renderer/src/stores/rrd';

const T0 = Date.UTC(2026, 10, 30, 12, 0, 0) / 1000;
function series(over: Partial<RrdSeries> = {}): RrdSeries {
  const times = [T0 - 120, T0 - 60, T0];
  return {
    target: 'vm',
    timeframe: 'hour',
    cf: 'AVERAGE',
    stepSeconds: 60,
    times,
    cpu: [0.02, null, 0.08],
    mem: [400 * 2 ** 20, null, 420 * 2 ** 20],
    maxmem: [2 ** 30, 2 ** 30, 2 ** 30],
    netin: [2048, null, 4096],
    netout: [1024, null, 3072],
    diskread: [0, null, 10 * 2 ** 20],
    diskwrite: [512, null, 1024],
    empty: false,
    fetchedAt: new Date(T0 * 1000).toISOString(),
    ...over,
  };
}

let stub: StubApi;
beforeAll(() => {
  globalThis.ResizeObserver = class {
    observe() {}
    disconnect() {}
    unobserve() {}
  } as unknown as typeof ResizeObserver;
  window.matchMedia = (() => ({ matches: false, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia;
});
beforeEach(() => {
  made.length = 0;
  useRrd.setState({ entries: {} });
  stub = createStubApi();
  useRrd.getState().attach(stub.api);
});
afterEach(cleanup);

const target = { kind: 'vm' as const, clusterId: 'c1', node: 'pv1-1', vmid: 101 };

describe('RrdGraphs', () => {
  it('loads the hour when opened, then draws CPU, memory, network and disk with text alternatives', async () => {
    let release!: () => void;
    stub.answer(
      'rrd.vm',
      (input) =>
        new Promise(
          (r) =>
            (release = () => r({ ok: true, value: series({ timeframe: (input as { timeframe: RrdSeries['timeframe'] }).timeframe }) })),
        ),
    );
    render(<RrdGraphs target={target} />);
    expect(screen.getByRole('status').textContent).toMatch(/Loading the last hour of this VM from Proxmox/);
    expect(stub.calls).toEqual([['rrd.vm', { clusterId: 'c1', node: 'pv1-1', vmid: 101, timeframe: 'hour', cf: 'AVERAGE' }]]);
    await act(async () => release());
    const cpu = await screen.findByRole('img', { name: /^CPU over the last hour/ });
    expect(cpu.getAttribute('aria-label')).toBe('CPU over the last hour: CPU latest 8.0%, highest 8.0%. Arrow keys read each point.');
    expect(
      screen.getByRole('img', { name: /^Memory over the last hour: Used latest 420 MiB, highest 420 MiB; Size latest 1 GiB/ }),
    ).toBeTruthy();
    expect(screen.getByRole('img', { name: /^Network over the last hour: In latest 4 KiB\/s/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: /^Disk I\/O over the last hour: Read latest 10 MiB\/s/ })).toBeTruthy();
    await waitFor(() => expect(made.length).toBe(4));
  });

  it('the arrow keys, Home and End read the graph point by point: the cursor moves and a live region says the values', async () => {
    stub.answer('rrd.vm', () => ({ ok: true, value: series() }));
    render(<RrdGraphs target={target} />);
    const cpu = await screen.findByRole('img', { name: /^CPU over the last hour/ });
    await waitFor(() => expect(made.length).toBe(4));
    const live = cpu.parentElement!.querySelector('[aria-live="polite"]')!;
    fireEvent.keyDown(cpu, { key: 'End' });
    expect(live.textContent).toMatch(/^\w{3} \d+ \w{3} \d\d:\d\d: CPU 8\.0%$/);
    expect(setCursor).toHaveBeenLastCalledWith({ left: T0, top: expect.any(Number) });
    fireEvent.keyDown(cpu, { key: 'ArrowLeft' });
    expect(live.textContent).toMatch(/: CPU no data$/);
    fireEvent.keyDown(cpu, { key: 'Home' });
    expect(live.textContent).toMatch(/: CPU 2\.0%$/);
    expect(setCursor).toHaveBeenLastCalledWith({ left: T0 - 120, top: expect.any(Number) });
    expect(cpu.getAttribute('tabindex')).toBe('0');
  });

  it('the timeframe switch asks for the week and marks it pressed; peaks ask with cf MAX', async () => {
    stub.answer('rrd.vm', (input) => ({
      ok: true,
      value: series({ timeframe: (input as { timeframe: RrdSeries['timeframe'] }).timeframe }),
    }));
    render(<RrdGraphs target={target} />);
    await screen.findByRole('img', { name: /^CPU over the last hour/ });
    fireEvent.click(screen.getByRole('button', { name: 'Week' }));
    await screen.findByRole('img', { name: /^CPU over the last week/ });
    expect(screen.getByRole('button', { name: 'Week' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Hour' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(screen.getByRole('checkbox', { name: /Peaks instead of averages/ }));
    await waitFor(() =>
      expect(stub.calls.at(-1)).toEqual(['rrd.vm', { clusterId: 'c1', node: 'pv1-1', vmid: 101, timeframe: 'week', cf: 'MAX' }]),
    );
    expect(stub.calls.map(([, i]) => (i as { timeframe: string }).timeframe)).toEqual(['hour', 'week', 'week']);
  });

  it('a new VM shows "No history yet" with the reason, and no chart', async () => {
    const none: (number | null)[] = [];
    stub.answer('rrd.vm', () => ({
      ok: true,
      value: series({
        times: [],
        cpu: none,
        mem: none,
        maxmem: none,
        netin: none,
        netout: none,
        diskread: none,
        diskwrite: none,
        empty: true,
        emptyReason: 'No history yet for this VM: Proxmox starts recording it with its first status update.',
      }),
    }));
    render(<RrdGraphs target={target} />);
    expect(await screen.findByText('No history yet')).toBeTruthy();
    expect(screen.getByText(/Proxmox starts recording it/)).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('an error shows its class, message and hint, and Retry asks again', async () => {
    stub.answer('rrd.vm', () => ({
      ok: false,
      error: { kind: 'transient', message: 'The history of VM 101 could not be read: 595 timeout', hint: 'Try again in a moment.' },
    }));
    render(<RrdGraphs target={target} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/could not be read: 595 timeout/);
    expect(alert.textContent).toMatch(/Try again in a moment/);
    fireEvent.click(screen.getByRole('button', { name: /Retry|Try again/ }));
    await waitFor(() => expect(stub.calls.length).toBe(2));
  });

  it('a node draws no disk graph and says why; its data summary is a table', async () => {
    stub.answer('rrd.node', () => ({ ok: true, value: series({ target: 'node', diskread: undefined, diskwrite: undefined }) }));
    render(<RrdGraphs target={{ kind: 'node', clusterId: 'c1', node: 'pv1-1' }} title="History of pv1-1" />);
    await screen.findByRole('img', { name: /^CPU over/ });
    expect(screen.queryByRole('img', { name: /^Disk/ })).toBeNull();
    expect(screen.getByText('Proxmox records no disk I/O rates for a node.')).toBeTruthy();
    const cells = screen.getAllByRole('row').map((r) => r.textContent);
    expect(cells).toContain('CPU8.0%5.0%8.0%');
  });
});

describe('axes and readout in units', () => {
  it('the time axis labels each timeframe at its grain, in local time', () => {
    const t = new Date(2026, 10, 30, 14, 5).getTime() / 1000; // local 30 Nov 2026 14:05, a Monday
    expect(timeTick(t, 'hour')).toBe('14:05');
    expect(timeTick(t, 'day')).toBe('14:05');
    expect(timeTick(t, 'week')).toBe('Mon 14:05');
    expect(timeTick(t, 'month')).toBe('30 Nov');
    expect(timeTick(t, 'year')).toBe('Nov 2026');
  });

  it("uPlot gets the timeframe's tick labels, a time x scale and a legend that formats the hovered values", async () => {
    stub.answer('rrd.vm', () => ({ ok: true, value: series({ timeframe: 'month' }) }));
    render(<RrdGraphs target={target} />);
    await waitFor(() => expect(made.length).toBe(4));
    const net = made.find((m) => m.opts.series[1].label === 'In')!.opts;
    expect(net.scales.x.time).toBe(true);
    expect(net.legend.show).toBe(true);
    expect(net.series[1].value(null, 1536)).toBe('1.5 KiB/s');
    expect(net.series[1].value(null, null)).toBe('—');
    expect(net.axes[1].values(null, [0, 2048])).toEqual(['0 B/s', '2 KiB/s']);
    expect(net.series[0].value(null, new Date(2026, 10, 30, 14, 5).getTime() / 1000)).toBe('Mon 30 Nov 14:05');
    expect(formatCpu(0.042)).toBe('4.2%');
    expect(formatRate(0)).toBe('0 B/s');
    // Byte axes end on binary round sizes: 300 KiB/s of traffic gets a 512 KiB/s top, a 1 GiB VM a 1 GiB one.
    expect(bytesCeil(300 * 1024)).toBe(512 * 1024);
    expect(bytesCeil(2 ** 30)).toBe(2 ** 30);
  });
});
