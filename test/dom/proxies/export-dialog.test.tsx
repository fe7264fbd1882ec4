/**
 * Issue 24 §3, the Export dialog as a person uses it (renderer/src/views/proxies/exports/): a bad host pattern is
 * said in words and nothing is asked of main with it; "include credentials" warns once, the confirmation goes to
 * main's settings, and only then does a request ask for credentials; the preview is main's text.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExportInput } from '../../../shared/channels/exports';
import { defaultSettings } from '../../../shared/domain/profile';
import { ExportDialog } from '../../../renderer/src/views/proxies/exports/ExportDialog';
import { flattenRows } from '../../../renderer/src/views/proxies/rows';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useSettings } from '../../../renderer/src/stores/settings';
import { useTasks } from '../../../renderer/src/stores/tasks';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { snapshot, vm } from './data';

describe('the Export dialog', () => {
  let stub: StubApi;
  let settings = { ...defaultSettings };
  beforeEach(() => {
    stub = createStubApi();
    settings = { ...defaultSettings };
    stub.answer('proxies.export', (input) => {
      const i = input as ExportInput;
      return {
        ok: true,
        value: {
          text: `${i.format} of ${i.scope.kind === 'selection' ? i.scope.proxies.length : i.scope.tag}${i.options.includeCredentials ? ' with credentials' : ''}\n`,
          fileName: 'proxy.pac',
          mediaType: 'text/plain',
          included: ['proxy-101', 'proxy-102'],
          leftOut: [],
          notes: [],
          withCredentials: i.options.includeCredentials,
        },
      };
    });
    stub.answer('settings.set', (input) => {
      settings = { ...settings, ...(input as { settings: object }).settings };
      return { ok: true, value: settings };
    });
    useTasks.setState({ api: stub.api, tasks: {}, loaded: true });
    useSettings.setState({ api: stub.api, settings });
    act(() => useInventory.getState().applySnapshot(snapshot([vm(101), vm(102)])));
  });
  afterEach(cleanup);

  const rows = () => flattenRows(useInventory.getState().clusters);
  const exportCalls = () => stub.calls.filter(([c]) => c === 'proxies.export').map(([, i]) => i as ExportInput);
  const preview = () => screen.findByLabelText('Preview', { exact: true });

  it('previews main’s text for the selection, and says a bad host pattern in words without asking main', async () => {
    render(<ExportDialog rows={rows()} />);
    expect((await preview()).textContent).toBe('pac of 2\n');
    const before = exportCalls().length;
    fireEvent.change(screen.getByLabelText('Hosts through the proxies'), { target: { value: '*.example.com\nbad host' } });
    expect(await screen.findByText(/“bad host”: A host pattern is a host name/)).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(exportCalls().length).toBe(before);
    fireEvent.change(screen.getByLabelText('Hosts through the proxies'), { target: { value: '*.example.com, api.test' } });
    await waitFor(() => expect(exportCalls().at(-1)?.options.routing.hosts).toEqual(['*.example.com', 'api.test']));
  });

  it('warns once before credentials, keeps the confirmation in main, and asks for them only then', async () => {
    render(<ExportDialog rows={rows()} />);
    await preview();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Include credentials' }));
    const warning = screen.getByRole('alert');
    expect(warning.textContent).toMatch(/Passwords in clear text/);
    expect(exportCalls().every((i) => !i.options.includeCredentials)).toBe(true);
    fireEvent.click(within(warning).getByRole('button', { name: 'Include credentials' }));
    await waitFor(() => expect(settings.exportCredentialsAcknowledged).toBe(true));
    expect((await screen.findByText('pac of 2 with credentials')).tagName).toBe('PRE');
    expect(screen.queryByRole('alert')).toBeNull();
    // Once confirmed, no second warning.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Include credentials' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Include credentials' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('declining the warning leaves the credentials out', async () => {
    render(<ExportDialog rows={rows()} />);
    await preview();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Include credentials' }));
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Leave them out' }));
    expect((screen.getByRole('checkbox', { name: 'Include credentials' }) as HTMLInputElement).checked).toBe(false);
    expect(settings.exportCredentialsAcknowledged).toBeUndefined();
  });
});
