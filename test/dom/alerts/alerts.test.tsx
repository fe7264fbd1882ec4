/**
 * The alerts in the window: the list (state, rule, target, times, reason,
 * hint) with Acknowledge, the Nav's count of open unacknowledged alerts
 * following `alert.raised`/`alert.resolved`/`alert.acknowledged` (an
 * acknowledge in another window), the empty state, the rules' thresholds
 * checked with the shared schema before saving, and the webhook form, whose
 * token goes to main write-only and is never shown again, and which asks
 * where to keep it only where the OS has no protected keyring.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlertView, WebhookTarget } from '../../../shared/channels/alerts';
import { defaultSettings } from '../../../shared/domain/profile';
import { Nav } from '../../../renderer/src/components/Nav';
import { useAlerts } from '../../../renderer/src/stores/alerts';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useSettings } from '../../../renderer/src/stores/settings';
import { AlertsView } from '../../../renderer/src/views/alerts/AlertsView';
import { WebhookDeliveries } from '../../../renderer/src/views/alerts/AlertTuningSections';
import { AlertRulesSection } from '../../../renderer/src/views/settings/AlertRulesSection';
import { WebhooksSection } from '../../../renderer/src/views/settings/WebhooksSection';
import { createStubApi, type StubApi } from '../../support/stub-api';

const TOKEN = 'tk_dom-sentinel-123456';
let stub: StubApi;

const failing: AlertView = {
  id: 3,
  rule: 'egress-failing',
  clusterId: 'demo',
  target: 'vm:150003',
  label: 'proxy proxy-b (150003)',
  raisedAt: '2026-11-30T12:00:00.000Z',
  reason: 'The egress check through proxy proxy-b (150003) failed 2 times in a row: HTTP 502.',
  hint: 'Check the VM.',
};
const storage: AlertView = {
  id: 2,
  rule: 'seed-storage-low',
  clusterId: 'demo',
  target: 'storage:pv1-1/proxy-seeds',
  label: 'seed storage proxy-seeds on pv1-1',
  raisedAt: '2026-11-30T11:00:00.000Z',
  resolvedAt: '2026-11-30T11:30:00.000Z',
  reason: 'The seed storage proxy-seeds on pv1-1 has 5 % free.',
  hint: 'Delete orphaned seed ISOs in Cleanup.',
};

beforeEach(() => {
  stub = createStubApi();
  stub.answer('alerts.list', () => ({ ok: true, value: { open: [failing], recent: [failing, storage], checkIntervalMinutes: 5 } }));
  stub.answer('alerts.targets', () => ({ ok: true, value: { targets: [], secretStorage: 'Tokens are sealed by the test keyring.' } }));
  stub.answer('alerts.acknowledge', () => ({ ok: true, value: { ...failing, acknowledgedAt: '2026-11-30T12:05:00.000Z' } }));
  useAlerts.setState({ alerts: {}, loaded: false, targets: [], api: undefined });
  useProfiles.setState({ list: undefined });
});

/** What protects secrets here, as the profiles list says (the connect wizard reads the same). */
function vaultIs(protectedKeyring: boolean) {
  useProfiles.setState({
    list: {
      profiles: [],
      vault: protectedKeyring
        ? { kind: 'keyring', protected: true, detail: 'GNOME keyring' }
        : { kind: 'key_file', protected: false, detail: 'There is no OS keyring in browser mode.' },
    },
  });
}
afterEach(cleanup);

async function attach() {
  await act(async () => {
    useAlerts.getState().attach(stub.api);
  });
}

const navAlerts = () => screen.getByRole('button', { name: /^Alerts/ });

describe('the Alerts view and the Nav count', () => {
  it('lists open alerts first with reason and hint, and acknowledging one takes it out of the count', async () => {
    await attach();
    render(
      <>
        <Nav />
        <AlertsView />
      </>,
    );
    expect(navAlerts().textContent).toBe('Alerts1 (1 open)');
    const rows = within(screen.getByRole('table', { name: 'Alerts' }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      // Issue 23: the hint reads "What to do: …", and every row can snooze or tune its target.
      expect.stringMatching(
        /^openEgress failingproxy proxy-b \(150003\).*failed 2 times in a row: HTTP 502\.What to do: Check the VM\.AcknowledgeSnooze or tune…$/,
      ),
      expect.stringMatching(
        /^resolvedSeed storage lowseed storage proxy-seeds on pv1-1.*5 % free\.What to do: Delete orphaned seed ISOs in Cleanup\.Snooze or tune…$/,
      ),
    ]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Acknowledge: Egress failing, proxy proxy-b (150003)' })));
    expect(stub.calls.filter(([c]) => c === 'alerts.acknowledge').map(([, i]) => i)).toEqual([{ id: 3 }]);
    expect(rows[0]!.textContent).toMatch(/^acknowledged/);
    expect(navAlerts().textContent).toBe('Alerts');
  });

  it('counts what main raises and resolves while the window is open', async () => {
    stub.answer('alerts.list', () => ({ ok: true, value: { open: [], recent: [] } }));
    await attach();
    render(<Nav />);
    expect(navAlerts().textContent).toBe('Alerts');
    act(() => stub.push('alert.raised', failing));
    expect(navAlerts().textContent).toBe('Alerts1 (1 open)');
    act(() => stub.push('alert.resolved', { ...failing, resolvedAt: '2026-11-30T12:10:00.000Z' }));
    expect(navAlerts().textContent).toBe('Alerts');
  });

  it('follows an acknowledge made in another window: the row and the Nav count change without a click here', async () => {
    await attach();
    render(
      <>
        <Nav />
        <AlertsView />
      </>,
    );
    expect(navAlerts().textContent).toBe('Alerts1 (1 open)');
    act(() => stub.push('alert.acknowledged', { ...failing, acknowledgedAt: '2026-11-30T12:05:00.000Z' }));
    expect(navAlerts().textContent).toBe('Alerts');
    const row = within(screen.getByRole('table', { name: 'Alerts' })).getAllByRole('row')[1]!;
    expect(row.textContent).toMatch(/^acknowledged/);
    expect(within(row).queryByRole('button', { name: /^Acknowledge/ })).toBeNull();
    expect(stub.calls.filter(([c]) => c === 'alerts.acknowledge')).toEqual([]);
  });

  it('says what it watches, and how often, when there is nothing', async () => {
    stub.answer('alerts.list', () => ({ ok: true, value: { open: [], recent: [], checkIntervalMinutes: 15 } }));
    await attach();
    render(<AlertsView />);
    expect(screen.getByText('No alerts')).toBeTruthy();
    expect(screen.getByText(/checks your proxies every 15 minutes/)).toBeTruthy();
  });
});

describe('the alert rules in Settings', () => {
  beforeEach(() => {
    stub.answer('settings.set', (input) => ({ ok: true, value: { ...defaultSettings, ...(input as { settings: object }).settings } }));
    useSettings.setState({ api: stub.api, settings: defaultSettings, error: undefined });
  });

  it('refuses a threshold out of bounds in words, sends nothing, and saves a good change with the rules switched off', async () => {
    render(<AlertRulesSection />);
    const checks = screen.getByLabelText('Egress failing: threshold (checks)') as HTMLInputElement;
    expect(checks.placeholder).toBe('2 (default)');
    fireEvent.change(checks, { target: { value: '0' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save rules' })));
    expect(screen.getByText('The failed checks in a row must be at least 1.')).toBeTruthy();
    expect(stub.calls.filter(([c]) => c === 'settings.set')).toEqual([]);

    fireEvent.change(checks, { target: { value: '3' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /^On: A successful check saw another egress address/ }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save rules' })));
    expect(stub.calls.filter(([c]) => c === 'settings.set').map(([, i]) => i)).toEqual([
      { settings: { alertRules: { egressFailingChecks: 3, disabled: ['egress-address-changed'] } } },
    ]);
  });

  it('issue 24: keeps the tags of distinct-exit pools, refusing one that is no Proxmox tag in words', async () => {
    render(<AlertRulesSection />);
    const pools = screen.getByLabelText('Pools of distinct exits (tags)');
    fireEvent.change(pools, { target: { value: 'vpn pool!' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save rules' })));
    expect(screen.getByText(/"pool!" is not a Proxmox tag/)).toBeTruthy();
    expect(stub.calls.filter(([c]) => c === 'settings.set')).toEqual([]);
    fireEvent.change(pools, { target: { value: 'vpn-pool, exits' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save rules' })));
    expect(stub.calls.filter(([c]) => c === 'settings.set').map(([, i]) => i)).toEqual([
      { settings: { alertRules: { distinctExitTags: ['vpn-pool', 'exits'] } } },
    ]);
  });
});

describe('a failed webhook delivery in the Alerts view', () => {
  const hook: WebhookTarget = { id: 't9', name: 'lab hook', format: 'generic', url: 'http://127.0.0.1:9/', enabled: true, hasSecret: false };
  const failed = { targetId: 't9', ok: false, at: '2026-11-30T12:01:00.000Z', message: 'Nothing listens there.', hint: 'Start the receiver.' };

  it('shows a delivery for a target saved after the window listed them (the list is read again)', async () => {
    await attach();
    render(<WebhookDeliveries />);
    expect(screen.queryByRole('region', { name: 'Webhook deliveries' })).toBeNull();
    // The target was saved elsewhere (another window, a test's router) after this window read the list.
    stub.answer('alerts.targets', () => ({ ok: true, value: { targets: [hook], secretStorage: 'test' } }));
    await act(async () => stub.push('alert.delivery', failed));
    expect(screen.getByRole('region', { name: 'Webhook deliveries' }).textContent).toMatch(/lab hook: the last alert failed/);
  });

  it('keeps a delivery that came while a read of the list was on its way with an older answer', async () => {
    await attach();
    render(<WebhookDeliveries />);
    let answer: (v: unknown) => void = () => undefined;
    stub.answer('alerts.targets', () => new Promise((resolve) => (answer = resolve)) as never);
    const reading = useAlerts.getState().loadTargets();
    useAlerts.setState({ targets: [hook] });
    await act(async () => stub.push('alert.delivery', failed));
    // The read answers with what main knew before the delivery.
    await act(async () => {
      answer({ ok: true, value: { targets: [hook], secretStorage: 'test' } });
      await reading;
    });
    expect(screen.getByRole('region', { name: 'Webhook deliveries' }).textContent).toMatch(/lab hook: the last alert failed/);
  });
});

describe('the webhooks in Settings', () => {
  it('sends the token once, write-only, and shows only that one is kept; Send test says what the server answered', async () => {
    const saved: WebhookTarget = {
      id: 't1',
      name: 'phone',
      format: 'ntfy',
      url: 'https://ntfy.example',
      topic: 'homelab',
      enabled: true,
      hasSecret: true,
    };
    stub.answer('alerts.saveTarget', () => ({ ok: true, value: saved }));
    stub.answer('alerts.testTarget', () => ({ ok: true, value: { message: 'Sent: the server answered 200.' } }));
    await attach();
    render(<WebhooksSection />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'phone' } });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://ntfy.example' } });
    fireEvent.change(screen.getByLabelText('Topic'), { target: { value: 'homelab' } });
    fireEvent.change(screen.getByLabelText('Token'), { target: { value: TOKEN } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add webhook' })));
    expect(stub.calls.filter(([c]) => c === 'alerts.saveTarget').map(([, i]) => i)).toEqual([
      { name: 'phone', format: 'ntfy', url: 'https://ntfy.example', topic: 'homelab', enabled: true, secret: TOKEN },
    ]);
    const list = screen.getByRole('list', { name: 'Webhook targets' });
    expect(list.textContent).toContain('token kept');
    expect(document.body.innerHTML).not.toContain(TOKEN);
    expect((screen.getByLabelText('Token') as HTMLInputElement).value).toBe('');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send test to phone' })));
    expect(within(list).getByRole('status').textContent).toBe('Sent: the server answered 200.');
  });

  it('with a keyring, asks nothing about where the token goes (main seals it with the keyring)', async () => {
    vaultIs(true);
    await attach();
    render(<WebhooksSection />);
    expect(screen.queryByLabelText('Keep the token')).toBeNull();
  });

  it("without a protected keyring, asks where to keep the token in the wizard's words and sends the choice", async () => {
    vaultIs(false);
    stub.answer('alerts.saveTarget', () => ({
      ok: true,
      value: {
        id: 't2',
        name: 'hook',
        format: 'generic',
        url: 'http://127.0.0.1:9/h',
        enabled: true,
        hasSecret: true,
        secretStorage: 'plaintext',
      },
    }));
    await attach();
    render(<WebhooksSection />);
    const where = screen.getByLabelText('Keep the token') as HTMLSelectElement;
    expect([...where.options].map((o) => o.textContent)).toEqual([
      'Until the app quits (ask again next time)',
      'On disk without real protection',
    ]);
    expect(where.value).toBe('session'); // nothing is stored unprotected unless chosen
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'hook' } });
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'generic' } });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'http://127.0.0.1:9/h' } });
    fireEvent.change(screen.getByLabelText('Token'), { target: { value: TOKEN } });
    fireEvent.change(where, { target: { value: 'plaintext' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add webhook' })));
    expect(stub.calls.filter(([c]) => c === 'alerts.saveTarget').map(([, i]) => i)).toEqual([
      { name: 'hook', format: 'generic', url: 'http://127.0.0.1:9/h', enabled: true, secret: TOKEN, secretStorage: 'plaintext' },
    ]);
    expect(screen.getByRole('list', { name: 'Webhook targets' }).textContent).toContain('token on disk without real protection');
  });

  it('says when a session token is gone after a restart: alerts skip that target until it is entered again', async () => {
    stub.answer('alerts.targets', () => ({
      ok: true,
      value: {
        targets: [
          {
            id: 't3',
            name: 'phone',
            format: 'ntfy',
            url: 'https://ntfy.example',
            topic: 'lab',
            enabled: true,
            hasSecret: false,
            secretStorage: 'session',
            secretNeeded: true,
          },
        ],
        secretStorage: 'This computer offers no protected keyring for tokens.',
      },
    }));
    await attach();
    render(<WebhooksSection />);
    expect(screen.getByRole('list', { name: 'Webhook targets' }).textContent).toMatch(
      /token to enter again \(it was kept until the app quit\): alerts are not sent here until then/,
    );
  });

  it('asks for an ntfy topic before sending anything', async () => {
    await attach();
    render(<WebhooksSection />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'phone' } });
    fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://ntfy.example' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add webhook' })));
    expect(screen.getByText('ntfy needs a topic to post to.')).toBeTruthy();
    expect(stub.calls.filter(([c]) => c === 'alerts.saveTarget')).toEqual([]);
  });

  it.each(['app', 'docs', 'file', 'static', 'settings', 'account', 'login', 'signup', 'metrics', 'v1'])(
    'refuses the ntfy topic "%s", which every ntfy server keeps for itself, before sending anything',
    async (topic) => {
      await attach();
      render(<WebhooksSection />);
      fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'phone' } });
      fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://ntfy.example' } });
      fireEvent.change(screen.getByLabelText('Topic'), { target: { value: topic } });
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add webhook' })));
      expect(
        screen.getByText(`ntfy keeps the topic "${topic}" for its own pages and API: every ntfy server refuses it. Choose another name.`),
      ).toBeTruthy();
      expect(stub.calls.filter(([c]) => c === 'alerts.saveTarget')).toEqual([]);
    },
  );

  it('says the token must be entered again when the URL moves to another server, and sends nothing until it is', async () => {
    const kept: WebhookTarget = {
      id: 't4',
      name: 'hook',
      format: 'generic',
      url: 'http://192.168.1.20:8080/hook',
      enabled: true,
      hasSecret: true,
      secretStorage: 'keyring',
    };
    stub.answer('alerts.targets', () => ({
      ok: true,
      value: { targets: [kept], secretStorage: 'Tokens are sealed by the test keyring.' },
    }));
    stub.answer('alerts.saveTarget', () => ({ ok: true, value: { ...kept, url: 'http://192.168.1.30:8080/hook' } }));
    await attach();
    render(<WebhooksSection />);
    fireEvent.click(screen.getByRole('button', { name: 'Edit hook' }));
    const url = screen.getByLabelText('URL');
    // Same server, another path: the kept token stays.
    fireEvent.change(url, { target: { value: 'http://192.168.1.20:8080/other' } });
    expect(screen.queryByText(/enter the token again/)).toBeNull();
    expect(screen.getByText(/leave empty to keep it/)).toBeTruthy();

    fireEvent.change(url, { target: { value: 'http://192.168.1.30:8080/hook' } });
    const words = 'The server address changed: enter the token again for 192.168.1.30:8080.';
    expect(screen.getByText(words)).toBeTruthy(); // shown while typing, before any save
    // …and the field's help no longer promises that an empty field keeps the token.
    expect(screen.queryByText(/leave empty to keep it/)).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save webhook' })));
    expect(stub.calls.filter(([c]) => c === 'alerts.saveTarget')).toEqual([]);

    fireEvent.change(screen.getByLabelText('Token'), { target: { value: TOKEN } });
    expect(screen.queryByText(words)).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save webhook' })));
    expect(stub.calls.filter(([c]) => c === 'alerts.saveTarget').map(([, i]) => i)).toEqual([
      { id: 't4', name: 'hook', format: 'generic', url: 'http://192.168.1.30:8080/hook', enabled: true, secret: TOKEN },
    ]);
  });
});
