/**
 * Issue 24: a proxy's password is asked of main only on an explicit action
 * in the drawer ("Show password", "Copy URL with credentials"), for that one
 * proxy; a proxy the app keeps none for says so in words.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VmRow } from '../../../shared/channels/inventory';
import { useChecks } from '../../../renderer/src/stores/checks';
import { useProxyCheck } from '../../../renderer/src/stores/proxy-check';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { ProxyDrawer } from '../../../renderer/src/views/proxies/ProxyDrawer';
import type { ProxyRow } from '../../../renderer/src/views/proxies/rows';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { vm } from './data';

const rowOf = (v: VmRow): ProxyRow => ({ ...v, key: `${v.clusterId}/${v.vmid}`, clusterName: 'Demo cluster', haystack: '' });
const PASSWORD = 'sentinel-proxy-password_A/b';

let stub: StubApi;
beforeEach(() => {
  stub = createStubApi();
  useChecks.setState({ api: stub.api, latest: {}, loadedClusters: {}, histories: {} });
  useProxyCheck.setState({ api: stub.api, checks: {} });
  useTasks.setState({ api: stub.api });
  stub.answer('checks.history', () => ({
    ok: true,
    value: { checks: [], enabled: true, endpoint: { protocol: 'http', port: 3128 }, intervalMinutes: 5 },
  }));
});
afterEach(cleanup);

const asked = () => stub.calls.filter(([c]) => c === 'proxies.credentials');

describe('the drawer reveals credentials only when asked', () => {
  it('asks main for nothing until "Show password", then shows them; "Copy URL with credentials" copies the encoded URL', async () => {
    stub.answer('proxies.credentials', () => ({ ok: true, value: { username: 'egress', password: PASSWORD } }));
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />));
    const test = screen.getByRole('region', { name: 'Proxy test' });
    expect(asked()).toHaveLength(0);
    expect(document.body.textContent).not.toContain(PASSWORD);
    await act(async () => fireEvent.click(within(test).getByRole('button', { name: 'Copy URL with credentials' })));
    expect(writeText).toHaveBeenCalledWith(`http://egress:${encodeURIComponent(PASSWORD)}@10.0.0.101:3128`);
    expect(document.body.textContent).not.toContain(PASSWORD);
    await act(async () => fireEvent.click(within(test).getByRole('button', { name: 'Show password' })));
    expect(asked().map(([, input]) => input)).toEqual([
      { clusterId: vm(101).clusterId, vmid: 101 },
      { clusterId: vm(101).clusterId, vmid: 101 },
    ]);
    expect(within(test).getByText(PASSWORD)).toBeTruthy();
    fireEvent.click(within(test).getByRole('button', { name: 'Hide password' }));
    expect(document.body.textContent).not.toContain(PASSWORD);
  });

  it('says in words when the app keeps no credentials for the proxy', async () => {
    stub.answer('proxies.credentials', () => ({
      ok: false,
      error: { kind: 'not-found', message: 'The app keeps no username and password for VM 101.', hint: 'Recreate it.' },
    }));
    await act(async () => render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />));
    const test = screen.getByRole('region', { name: 'Proxy test' });
    await act(async () => fireEvent.click(within(test).getByRole('button', { name: 'Show password' })));
    expect(within(test).getByText(/keeps no username and password/)).toBeTruthy();
  });

  it('"Rotate credentials" sends nothing until its confirm, which says the VM reboots; a refusal shows in words', async () => {
    const rotations = () => stub.calls.filter(([c]) => c === 'proxies.rotateCredentials');
    stub.answer('proxies.rotateCredentials', () => ({
      ok: false,
      error: { kind: 'permanent', message: 'proxy-101 (VM 101) was made without a username and password. Nothing was changed.', hint: 'Recreate it.' },
    }));
    const row = rowOf(vm(101));
    await act(async () => render(<ProxyDrawer row={row} onClose={() => undefined} />));
    const test = screen.getByRole('region', { name: 'Proxy test' });
    await act(async () => fireEvent.click(within(test).getByRole('button', { name: 'Rotate credentials' })));
    const confirm = screen.getByRole('dialog', { name: `Rotate the credentials of ${row.name}?` });
    expect(confirm.textContent).toMatch(/reboots the VM/);
    expect(rotations()).toHaveLength(0);
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' })));
    expect(rotations()).toHaveLength(0);
    await act(async () => fireEvent.click(within(test).getByRole('button', { name: 'Rotate credentials' })));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Rotate and reboot' })));
    expect(rotations().map(([, input]) => input)).toEqual([{ clusterId: row.clusterId, vmid: 101, name: row.name }]);
    expect(within(test).getByText(/made without a username and password/)).toBeTruthy();
  });

  it('offers no rotate for a stopped VM: it says to start it', async () => {
    await act(async () => render(<ProxyDrawer row={rowOf({ ...vm(101), status: 'stopped' })} onClose={() => undefined} />));
    const test = screen.getByRole('region', { name: 'Proxy test' });
    expect((within(test).getByRole('button', { name: 'Rotate credentials' }) as HTMLButtonElement).disabled).toBe(true);
    expect(test.textContent).toMatch(/Start the VM to rotate its credentials/);
  });
});
