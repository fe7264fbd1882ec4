/**
 * Issue 26, the Hand to Kubernetes dialog's token choice as a person uses it
 * (renderer/src/views/proxies/handoff/): "Include the API token as a file
 * (0600)" is reached by keyboard and says what it means; ticking it asks its
 * own warning, and only an accepted warning makes a request carry
 * includeToken; declining, or unticking, leaves the token out. The file list
 * marks proxmox-token as holding a secret, as main's preview says.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HandoffInput, HandoffPreview } from '../../../shared/channels/handoff';
import { defaultSettings } from '../../../shared/domain/profile';
import { HandoffDialog } from '../../../renderer/src/views/proxies/handoff/HandoffDialog';
import { flattenRows } from '../../../renderer/src/views/proxies/rows';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useSettings } from '../../../renderer/src/stores/settings';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { snapshot, vm } from './data';

describe('the Hand to Kubernetes dialog and the API token', () => {
  let stub: StubApi;
  beforeEach(() => {
    stub = createStubApi();
    stub.answer('handoff.preview', (input) => {
      const i = input as HandoffInput;
      const files: HandoffPreview['files'] = [
        { path: 'providers-config-entry.yaml', secret: false, bytes: 300 },
        ...(i.includeToken ? [{ path: 'proxmox-token', secret: true, bytes: 58 }] : []),
        { path: 'create-token-secret.sh', secret: false, bytes: 200 },
        { path: 'README.md', secret: false, bytes: 2000 },
      ];
      return { ok: true, value: { refusals: [], files, readme: '# Handing\n' } };
    });
    useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
    useSettings.setState({ api: stub.api, settings: { ...defaultSettings } });
    act(() => useInventory.getState().applySnapshot(snapshot([vm(101), vm(102)])));
  });
  afterEach(cleanup);

  const rows = () => flattenRows(useInventory.getState().clusters);
  const previews = () => stub.calls.filter(([c]) => c === 'handoff.preview').map(([, i]) => i as HandoffInput);
  const box = () => screen.getByRole('checkbox', { name: 'Include the API token as a file (0600)' }) as HTMLInputElement;
  const bundle = () => screen.findByRole('region', { name: 'Bundle' });

  it('is a plain checkbox that says what it means, reached by Tab', async () => {
    render(<HandoffDialog rows={rows()} />);
    await bundle();
    expect(box().tabIndex).not.toBe(-1);
    expect(box().disabled).toBe(false);
    const help = document.getElementById(box().getAttribute('aria-describedby') ?? '');
    expect(help?.textContent).toMatch(/the bundle holds no token: its README says where to write/);
    expect(previews().every((i) => i.includeToken !== true)).toBe(true);
  });

  it('asks its own warning; only accepting it asks main for the token, and the file is listed as a secret', async () => {
    render(<HandoffDialog rows={rows()} />);
    await bundle();
    fireEvent.click(box());
    const warning = screen.getByRole('alert', { name: 'The API token in the bundle' });
    expect(warning.textContent).toMatch(/API token of Demo cluster \(simulated\) as it is/);
    expect(warning.textContent).not.toMatch(/Passwords in clear text/); // not the credentials warning
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(previews().every((i) => i.includeToken !== true)).toBe(true);
    fireEvent.click(within(warning).getByRole('button', { name: 'Include the token' }));
    await waitFor(() => expect(previews().at(-1)?.includeToken).toBe(true));
    const item = await within(await bundle()).findByText('proxmox-token');
    expect(item.closest('li')?.textContent).toMatch(/holds a secret/);
    expect(box().checked).toBe(true);
    expect(screen.queryByRole('alert', { name: 'The API token in the bundle' })).toBeNull();
    // Unticked, the token is left out again; ticked again, the warning is asked again (no remembered yes).
    fireEvent.click(box());
    await waitFor(() => expect(previews().at(-1)?.includeToken).toBe(false));
    fireEvent.click(box());
    expect(screen.getByRole('alert', { name: 'The API token in the bundle' })).toBeTruthy();
  });

  it('declining the warning leaves the token out', async () => {
    render(<HandoffDialog rows={rows()} />);
    await bundle();
    fireEvent.click(box());
    fireEvent.click(within(screen.getByRole('alert', { name: 'The API token in the bundle' })).getByRole('button', { name: 'Leave it out' }));
    expect(box().checked).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(previews().every((i) => i.includeToken !== true)).toBe(true);
    expect(within(await bundle()).queryByText('proxmox-token')).toBeNull();
  });
});
