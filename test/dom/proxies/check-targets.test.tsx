/**
 * Issue 24, targets in the drawer: each target's last fetch through the
 * proxy (result, first byte, total, where it comes from), the proxy's own
 * list and its tags' lists edited there, a bad list refused in words before
 * anything is sent, and what is saved read back from main.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckHistory, TargetCheckEntry } from '../../../shared/channels/checks';
import type { VmRow } from '../../../shared/channels/inventory';
import { useChecks } from '../../../renderer/src/stores/checks';
import { ProxyDrawer } from '../../../renderer/src/views/proxies/ProxyDrawer';
import type { ProxyRow } from '../../../renderer/src/views/proxies/rows';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { vm } from './data';

const rowOf = (v: VmRow): ProxyRow => ({ ...v, key: `${v.clusterId}/${v.vmid}`, clusterName: 'Demo cluster', haystack: '' });
const T0 = Date.parse('2026-12-02T12:00:00Z');
const site = 'https://site.example/health';
const down = 'http://10.9.9.9:8080/';

const fetched = (minutes: number, patch: Partial<TargetCheckEntry> = {}): TargetCheckEntry => ({
  url: site,
  at: T0 + minutes * 60_000,
  ok: true,
  httpStatus: 200,
  firstByteMs: 31,
  totalMs: 48,
  origin: 'scheduled',
  ...patch,
});

function history(own: string[], tagged: string[]): CheckHistory {
  return {
    checks: [],
    enabled: true,
    endpoint: { protocol: 'http', port: 3128 },
    intervalMinutes: 5,
    targets: [
      ...tagged.map((url) => ({ url, from: [{ tag: 'web' }], recent: [fetched(0, { url }), fetched(5, { url, totalMs: 52 })] })),
      ...own.map((url) => ({
        url,
        from: [{ proxy: true as const }],
        recent: [
          fetched(5, {
            url,
            ok: false,
            httpStatus: undefined,
            firstByteMs: undefined,
            totalMs: undefined,
            stage: 'request',
            problem: 'The proxy works, but it could not reach 10.9.9.9:8080: the connection was refused.',
          }),
        ],
      })),
    ],
    ownTargets: own,
    tagTargets: [{ tag: 'web', urls: tagged }],
  };
}

let stub: StubApi;
beforeEach(() => {
  stub = createStubApi();
  useChecks.setState({ api: stub.api, latest: {}, loadedClusters: {}, histories: {} });
});
afterEach(cleanup);

describe("the drawer's targets", () => {
  const section = () => screen.getByRole('region', { name: 'Scheduled checks' });
  const targetTable = () => within(section()).getByRole('table', { name: "Each target's last fetch through the proxy" });
  /** One row group a target: its URL as the group's header, then its last result, timing and trend. */
  const targetGroups = () => [...targetTable().querySelectorAll('tbody')] as HTMLElement[];
  const heading = (g: HTMLElement) => g.querySelector('th')!.textContent;

  it("shows each target's last fetch: reached with its timings, or the reason it failed", async () => {
    stub.answer('checks.history', () => ({ ok: true, value: history([down], [site]) }));
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101, { tags: ['web'] }))} onClose={() => undefined} />));
    const groups = targetGroups();
    expect(groups).toHaveLength(2);
    const cells = (g: HTMLElement) =>
      within(g)
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(heading(groups[0]!)).toBe(`${site} (tag web)`);
    expect(cells(groups[0]!)[0]).toMatch(/^ok reached \(HTTP 200\)/);
    expect(cells(groups[0]!)[1]).toBe('31 ms / 52 ms');
    expect(groups[0]!.querySelector('svg.sparkline path')).not.toBeNull();
    expect(heading(groups[1]!)).toBe(`${down} (this proxy)`);
    expect(cells(groups[1]!)[0]).toContain('could not reach 10.9.9.9:8080: the connection was refused.');
    expect(cells(groups[1]!)[1]).toBe('—');
  });

  it('refuses a bad list in words before sending, then saves the proxy’s own list and a tag’s', async () => {
    let own: string[] = [];
    let tagged: string[] = [];
    stub.answer('checks.history', () => ({ ok: true, value: history(own, tagged) }));
    stub.answer('checks.setTargets', (input) => {
      const i = input as { vmid?: number; tag?: string; targets: string[] };
      if (i.tag) tagged = i.targets;
      else own = i.targets;
      return { ok: true, value: { targets: i.targets } };
    });
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101, { tags: ['web'] }))} onClose={() => undefined} />));
    expect(within(section()).getByText(/No targets: list the sites this proxy must reach/)).toBeTruthy();
    const ownField = within(section()).getByRole('textbox', { name: "This proxy's targets" });
    const ownSave = () => within(ownField.closest('form')!).getByRole('button', { name: 'Save targets' });

    fireEvent.change(ownField, { target: { value: `${site}\nhttps://me:secret@site.example/` } });
    expect(
      within(section()).getByText(/Line 2 \(https:\/\/…@site.example\/\): The URL must not hold a user name or password/),
    ).toBeTruthy();
    expect((ownSave() as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.submit(ownField.closest('form')!));
    expect(stub.calls.filter(([c]) => c === 'checks.setTargets')).toHaveLength(0);

    fireEvent.change(ownField, { target: { value: `${down}\n\n` } });
    await act(async () => fireEvent.click(ownSave()));
    expect(stub.calls.filter(([c]) => c === 'checks.setTargets').at(-1)?.[1]).toEqual({ clusterId: 'demo', vmid: 101, targets: [down] });

    const tagField = within(section()).getByRole('textbox', { name: 'Targets of every proxy tagged “web”' });
    fireEvent.change(tagField, { target: { value: site } });
    await act(async () => fireEvent.click(within(tagField.closest('form')!).getByRole('button', { name: 'Save targets' })));
    expect(stub.calls.filter(([c]) => c === 'checks.setTargets').at(-1)?.[1]).toEqual({ clusterId: 'demo', tag: 'web', targets: [site] });
    // Read back from main: both now in the table, the tag's first.
    expect(targetGroups().map(heading)).toEqual([`${site} (tag web)`, `${down} (this proxy)`]);
  });
});
