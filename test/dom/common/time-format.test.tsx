/**
 * Issue 23 item 12: every time the renderer shows is in one format (local, 24-hour, "2026-12-01 20:23:17" or
 * "5 minutes ago") and relative times and ages tick. A scan holds that no file outside renderer/src/format formats
 * a Date itself; the views are rendered and read as a user reads them (no "8:27:36 PM", no raw ISO), then the
 * clock runs 30 s with no event and the words must move on.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useChecks } from '../../../renderer/src/stores/checks';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { ProxiesView } from '../../../renderer/src/views/proxies/ProxiesView';
import { ProxyDrawer } from '../../../renderer/src/views/proxies/ProxyDrawer';
import { LastCheckCell } from '../../../renderer/src/views/proxies/LastCheckCell';
import type { ProxyRow } from '../../../renderer/src/views/proxies/rows';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { giveElementsHeight, snapshot, vm } from '../proxies/data';

const root = join(__dirname, '../../../renderer/src');
const formatDir = join(root, 'format');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === formatDir ? [] : sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** What formats a Date by hand: a locale string, Intl's date formats, or a Date's own fields. */
const ownFormatting = /toLocale(Date|Time)?String|Intl\.(DateTimeFormat|RelativeTimeFormat)|\.get(UTC)?(FullYear|Month|Date|Day|Hours|Minutes|Seconds)\(/;
const amPm = /\d{1,2}:\d{2}(:\d{2})?\s?[AP]M/;
const rawIso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('one time format for the renderer', () => {
  it('has no file outside renderer/src/format that formats a time itself', () => {
    const offenders = sources(root)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ file, line, i }))
          .filter(({ line }) => ownFormatting.test(line)),
      )
      .map(({ file, line, i }) => `${relative(root, file)}:${i + 1}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});

const T0 = Date.parse('2026-12-01T20:23:13Z');
const rowOf = (patch: Parameters<typeof vm>[1]): ProxyRow => ({
  ...vm(101, patch),
  key: 'demo/101',
  clusterName: 'Demo cluster',
  haystack: '',
});

describe('times as the views show them', () => {
  let stub: StubApi;
  beforeAll(() => giveElementsHeight(600));
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(T0 + 4000);
    stub = createStubApi();
    useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
    useChecks.setState({ api: stub.api, latest: {}, loadedClusters: {}, histories: {} });
    useInventory.setState({ api: undefined, loaded: false, clusters: [], revision: 0, error: undefined });
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("ticks the Proxies table's Age with no event arriving", () => {
    const createdAt = new Date(T0).toISOString();
    act(() => useInventory.getState().applySnapshot(snapshot([vm(101, { createdAt })])));
    render(<ProxiesView />);
    const row = () => within(screen.getByRole('grid', { name: 'Proxies' })).getAllByRole('row')[1]!;
    expect(row().textContent).toContain('4 s');
    act(() => vi.advanceTimersByTime(30_000));
    expect(row().textContent).toContain('34 s');
  });

  it("ticks the drawer's relative times and writes its instants locally, never as ISO or with AM/PM", async () => {
    stub.answer('checks.history', () => ({ ok: false, error: { kind: 'transient', message: 'not now', hint: 'later' } }));
    const createdAt = new Date(T0).toISOString();
    await act(async () => render(<ProxyDrawer row={rowOf({ createdAt, startedAt: createdAt })} onClose={() => undefined} />));
    const drawer = document.body;
    expect(drawer.textContent).toContain('4 seconds ago');
    expect(drawer.textContent).not.toMatch(rawIso);
    expect(drawer.textContent).not.toMatch(amPm);
    // The created-at instant in the one absolute format, local.
    expect(drawer.textContent).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:13/);
    act(() => vi.advanceTimersByTime(30_000));
    expect(drawer.textContent).toContain('34 seconds ago');
    expect(drawer.textContent).not.toContain('4 seconds ago)');
  });

  it("words the Last check's time in the same format", () => {
    useChecks.setState({
      latest: {
        'demo/101': {
          vmid: 101,
          latest: { clusterId: 'demo', vmid: 101, at: T0, ok: true, latencyMs: 40, httpStatus: 200, origin: 'scheduled' },
          trend: [40],
        },
      },
    });
    render(<LastCheckCell clusterId="demo" vmid={101} />);
    const title = document.querySelector('.last-check')!.getAttribute('title')!;
    expect(title).not.toMatch(amPm);
    expect(title).toMatch(/checked \d{4}-\d{2}-\d{2} \d{2}:\d{2}:13$/);
  });
});
