/**
 * Scheduled checks in the window: the drawer's history (the share that
 * worked, the latest checks newest first with the failure's reason, the
 * proxy's off switch, a result arriving while it is open), the table's Last
 * check cell (state, latency, egress, sparkline), and Test's note.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckEntry, CheckHistory } from '../../../shared/channels/checks';
import type { VmRow } from '../../../shared/channels/inventory';
import { useChecks } from '../../../renderer/src/stores/checks';
import { useProxyCheck } from '../../../renderer/src/stores/proxy-check';
import { LastCheckCell } from '../../../renderer/src/views/proxies/LastCheckCell';
import { ProxyDrawer } from '../../../renderer/src/views/proxies/ProxyDrawer';
import type { ProxyRow } from '../../../renderer/src/views/proxies/rows';
import { sparkPath } from '../../../renderer/src/views/proxies/Sparkline';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { vm } from './data';

const rowOf = (v: VmRow): ProxyRow => ({ ...v, key: `${v.clusterId}/${v.vmid}`, clusterName: 'Demo cluster', haystack: '' });
const T0 = Date.parse('2026-11-30T12:00:00Z');

const check = (minutes: number, patch: Partial<CheckEntry> = {}): CheckEntry => ({
  clusterId: 'demo',
  vmid: 101,
  at: T0 + minutes * 60_000,
  ok: true,
  latencyMs: 40 + minutes,
  httpStatus: 200,
  egressAddress: '203.0.113.47',
  origin: 'scheduled',
  ...patch,
});

const history = (patch: Partial<CheckHistory> = {}): CheckHistory => ({
  checks: [
    check(0),
    check(5, {
      ok: false,
      latencyMs: undefined,
      egressAddress: undefined,
      httpStatus: 502,
      stage: 'request',
      problem: 'The proxy answered 502 Bad Gateway.',
    }),
    check(7, { origin: 'manual' }),
  ],
  enabled: true,
  endpoint: { protocol: 'http', port: 3128 },
  intervalMinutes: 5,
  ...patch,
});

let stub: StubApi;
beforeEach(() => {
  stub = createStubApi();
  useChecks.setState({ api: stub.api, latest: {}, loadedClusters: {}, histories: {} });
});
afterEach(cleanup);

describe("the drawer's scheduled checks", () => {
  const section = () => screen.getByRole('region', { name: 'Scheduled checks' });

  it('shows how many checks worked and the latest ones newest first, with the reason a check failed', async () => {
    stub.answer('checks.history', () => ({ ok: true, value: history() }));
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />));
    expect(within(section()).getByText(/2 of 3 checks worked/)).toBeTruthy();
    const rows = within(section()).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[3]!.textContent)).toEqual(['Test', 'schedule', 'schedule']);
    expect(rows[1]!.textContent).toContain('The proxy answered 502 Bad Gateway.');
    expect(rows[0]!.textContent).toContain('47 ms');
    expect(section().querySelector('svg.sparkline path')).not.toBeNull();
    expect(stub.calls.find(([c]) => c === 'checks.history')?.[1]).toMatchObject({ clusterId: 'demo', vmid: 101 });
  });

  it("turns the proxy's checks off and says why it is not checked", async () => {
    let enabled = true;
    stub.answer('checks.history', () => ({
      ok: true,
      value: history({ enabled, ...(enabled ? {} : { idleReason: 'Scheduled checks are off for this proxy.' }) }),
    }));
    stub.answer('checks.setProxyEnabled', (input) => {
      enabled = (input as { enabled: boolean }).enabled;
      return { ok: true, value: { enabled } };
    });
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />));
    const box = within(section()).getByRole('checkbox', { name: /Check this proxy every 5 minutes/ }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    await act(async () => fireEvent.click(box));
    expect(stub.calls.find(([c]) => c === 'checks.setProxyEnabled')?.[1]).toEqual({ clusterId: 'demo', vmid: 101, enabled: false });
    expect((within(section()).getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
    expect(within(section()).getByText(/Not checked now: Scheduled checks are off for this proxy/)).toBeTruthy();
  });

  it('issue 24: confirms the learned exit, refuses a typed one that is no address or CIDR in words, and saves a CIDR', async () => {
    let value = history({ learnedExit: '203.0.113.5' });
    stub.answer('checks.history', () => ({ ok: true, value }));
    stub.answer('checks.setExpectedExit', (input) => {
      const i = input as { expected?: string; confirmLearned?: true };
      value = history({ expectedExit: i.confirmLearned ? ['203.0.113.5'] : (i.expected ?? '').split(/[\s,]+/) });
      return { ok: true, value: { expectedExit: value.expectedExit } };
    });
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />));
    await act(async () => fireEvent.click(within(section()).getByRole('button', { name: 'Expect 203.0.113.5' })));
    expect(stub.calls.find(([c]) => c === 'checks.setExpectedExit')?.[1]).toEqual({ clusterId: 'demo', vmid: 101, confirmLearned: true });
    expect(within(section()).getByText('203.0.113.5')).toBeTruthy();
    const field = within(section()).getByRole('textbox', { name: 'Set the expected exit' });
    fireEvent.change(field, { target: { value: 'vpn.example' } });
    expect(within(section()).getByText(/"vpn.example" is not an IPv4 or IPv6 address or CIDR/)).toBeTruthy();
    await act(async () => fireEvent.click(within(section()).getByRole('button', { name: 'Save' })));
    expect(stub.calls.filter(([c]) => c === 'checks.setExpectedExit')).toHaveLength(1);
    fireEvent.change(field, { target: { value: '203.0.113.0/28' } });
    await act(async () => fireEvent.click(within(section()).getByRole('button', { name: 'Save' })));
    expect(stub.calls.filter(([c]) => c === 'checks.setExpectedExit').at(-1)?.[1]).toEqual({
      clusterId: 'demo',
      vmid: 101,
      expected: '203.0.113.0/28',
    });
    expect(within(section()).getByText('203.0.113.0/28')).toBeTruthy();
  });

  it('issue 24: a proxy that left outside its expected exit is offered the new exit, and a good check read while open brings that offer', async () => {
    let value = history({ expectedExit: ['203.0.113.5'] });
    stub.answer('checks.history', () => ({ ok: true, value }));
    stub.answer('checks.setExpectedExit', () => {
      value = history({ expectedExit: ['198.51.100.20'] });
      return { ok: true, value: { expectedExit: value.expectedExit } };
    });
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />));
    expect(within(section()).queryByText(/outside it/)).toBeNull();
    value = history({ expectedExit: ['203.0.113.5'], learnedExit: '198.51.100.20' });
    await act(async () => useChecks.getState().applyResult(check(10, { egressAddress: '198.51.100.20' })));
    await waitFor(() => expect(within(section()).getByText(/outside it/).textContent).toContain('The last check left from 198.51.100.20'));
    await act(async () => fireEvent.click(within(section()).getByRole('button', { name: 'Expect 198.51.100.20 instead' })));
    expect(stub.calls.filter(([c]) => c === 'checks.setExpectedExit').at(-1)?.[1]).toEqual({ clusterId: 'demo', vmid: 101, confirmLearned: true });
    expect(within(section()).queryByText(/outside it/)).toBeNull();
    expect(within(section()).getByText('198.51.100.20')).toBeTruthy();
  });

  it('adds a result that arrives while the drawer is open', async () => {
    stub.answer('checks.history', () => ({ ok: true, value: history() }));
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />));
    await act(async () => useChecks.getState().applyResult(check(10, { ok: false, latencyMs: undefined, problem: 'Connection refused.' })));
    expect(within(section()).getByText(/2 of 4 checks worked/)).toBeTruthy();
    expect(within(section()).getAllByRole('row')[1]!.textContent).toContain('Connection refused.');
  });
});

describe('the Last check cell', () => {
  it('shows the state, latency, egress address and a sparkline, and follows new results', async () => {
    useChecks.setState({
      latest: { 'demo/101': { vmid: 101, latest: check(0, { latencyMs: 43 }), trend: [40, 41, null, 43] } },
    });
    render(<LastCheckCell clusterId="demo" vmid={101} />);
    expect(screen.getByRole('img', { name: 'works' })).toBeTruthy();
    expect(screen.getByText('43 ms')).toBeTruthy();
    expect(screen.getByText('203.0.113.47')).toBeTruthy();
    expect(document.querySelector('svg.sparkline .sparkline-gap')).not.toBeNull();

    await act(async () =>
      useChecks.getState().applyResult(check(5, { ok: false, latencyMs: undefined, httpStatus: 502, problem: 'Bad gateway.' })),
    );
    expect(screen.getByRole('img', { name: 'fails' })).toBeTruthy();
    expect(screen.getByText('HTTP 502')).toBeTruthy();
    expect(useChecks.getState().latest['demo/101']?.trend).toEqual([40, 41, null, 43, null]);
  });

  it('says so when a proxy was never checked', () => {
    render(<LastCheckCell clusterId="demo" vmid={999} />);
    expect(screen.getByText('not checked')).toBeTruthy();
  });

  it('draws one path, gaps for failures, scaled to the highest latency', () => {
    expect(sparkPath([10, 20, null, 20], 30, 12)).toEqual({ line: 'M0.0 6.0L10.0 1.0M30.0 1.0', gaps: 'M20.0 12v-3' });
  });
});

describe("Test's note", () => {
  it('shows how the check ran (the demo checks against its built-in echo)', () => {
    useProxyCheck.setState({
      checks: {
        'demo/101': {
          running: false,
          input: { clusterId: 'demo', vmid: 101, protocol: 'http', port: 3128 },
          result: {
            reachable: true,
            address: '10.0.0.101',
            port: 3128,
            protocol: 'http',
            targetUrl: 'http://127.0.0.1:5000/ip',
            latencyMs: 3,
            egressAddress: '203.0.113.47',
            note: 'demo: checked against the built-in echo',
          },
          error: undefined,
          at: new Date(T0).toISOString(),
        },
      },
    });
    stub.answer('checks.history', () => ({ ok: true, value: history() }));
    render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />);
    expect(
      within(screen.getByRole('status', { name: 'Test result' })).getByText('Note: demo: checked against the built-in echo'),
    ).toBeTruthy();
  });
});

describe("Test's result of an IPv6-only proxy", () => {
  it('names the proxy as a URL with the address in brackets, and says why no exit was taken', () => {
    const note =
      "The target answered with 2001:db8::10, this computer's own address as the proxy saw it: the proxy passed it on in a header (X-Forwarded-For), so it is not the proxy's exit. Use an https check URL, which the proxy cannot change.";
    useProxyCheck.setState({
      checks: {
        'demo/101': {
          running: false,
          input: { clusterId: 'demo', vmid: 101, protocol: 'http', port: 3128 },
          result: {
            reachable: true,
            address: '2001:db8::65',
            port: 3128,
            protocol: 'http',
            targetUrl: 'http://echo.lan/ip',
            latencyMs: 3,
            note,
          },
          error: undefined,
          at: new Date(T0).toISOString(),
        },
      },
    });
    stub.answer('checks.history', () => ({ ok: true, value: history() }));
    render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />);
    const result = within(screen.getByRole('status', { name: 'Test result' }));
    expect(result.getByText('http://[2001:db8::65]:3128 → http://echo.lan/ip')).toBeTruthy();
    expect(result.getByText(`Note: ${note}`)).toBeTruthy();
  });
});
