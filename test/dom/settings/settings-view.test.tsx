import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/domain/profile';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useSettings } from '../../../renderer/src/stores/settings';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { SettingsView } from '../../../renderer/src/views/settings/SettingsView';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { profile, profilesList } from './reports';

let stub: StubApi;
const settle = () => act(async () => undefined);

beforeEach(() => {
  stub = createStubApi();
  stub.answer('settings.set', (input) => ({ ok: true, value: { ...defaultSettings, ...(input as { settings: object }).settings } }));
  stub.answer('profiles.delete', () => ({ ok: true, value: { deleted: true } }));
  stub.answer('history.status', () => ({ ok: true, value: { path: '/data/history.sqlite', sizeBytes: 0, schemaVersion: 2, retentionDays: 30 } }));
  useProfiles.setState({ api: stub.api, list: profilesList([profile(), profile({ id: 'demo', name: 'Demo', demo: true })]) });
  useSettings.setState({ api: stub.api, settings: defaultSettings, error: undefined, connectWizardRequested: false });
  useDoctor.setState({ api: stub.api, runs: {} });
});
afterEach(cleanup);

describe('Settings view', () => {
  it('asks for a missing session secret and sends it with the profile unchanged', async () => {
    const held = profile();
    useProfiles.setState({ list: profilesList([{ ...held, secretAvailable: false }]) });
    stub.answer('profiles.save', () => ({ ok: true, value: held }));
    stub.answer('profiles.list', () => ({ ok: true, value: profilesList([held]) }));
    render(<SettingsView />);
    fireEvent.click(screen.getByRole('button', { name: 'Enter the token secret for homelab' }));
    const dialog = screen.getByRole('dialog', { name: 'Token secret for homelab' });
    fireEvent.change(within(dialog).getByLabelText('Token secret'), { target: { value: 'a-new-secret-value' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save secret' })));
    const { id, demo: _d, secretAvailable: _s, createdAt: _c, updatedAt: _u, ...fields } = held;
    expect(stub.calls.find(([c]) => c === 'profiles.save')?.[1]).toEqual({ id, profile: fields, secret: 'a-new-secret-value' });
    expect(screen.queryByRole('dialog', { name: 'Token secret for homelab' })).toBeNull();
  });

  it('removes a cluster only after a confirmation that names it; the demo cannot be removed', async () => {
    render(<SettingsView />);
    expect(screen.getByRole('button', { name: 'Remove Demo' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Remove homelab' }));
    const confirm = screen.getByRole('dialog', { name: 'Remove cluster' });
    expect(confirm.textContent).toContain('https://pve.home.lab:8006');
    expect(stub.calls.some(([c]) => c === 'profiles.delete')).toBe(false);
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: 'Remove homelab' })));
    expect(stub.calls.find(([c]) => c === 'profiles.delete')?.[1]).toEqual({ id: 'home' });
  });

  it('checks poll intervals with the shared schema and saves good ones', async () => {
    render(<SettingsView />);
    fireEvent.change(screen.getByLabelText('Health check every (seconds)'), { target: { value: '0' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save polling and checks' })));
    expect(stub.calls.some(([c]) => c === 'settings.set')).toBe(false);
    expect(screen.getByLabelText('Health check every (seconds)').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByLabelText('Health check every (seconds)'), { target: { value: '10' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save polling and checks' })));
    expect(stub.calls.find(([c]) => c === 'settings.set')?.[1]).toMatchObject({
      settings: { pollIntervals: { healthSeconds: 10, inventorySeconds: 5 } },
    });
  });

  it('reports an import main refused, with its class', async () => {
    stub.answer('profiles.import', () => ({
      ok: false,
      error: { kind: 'invalid-input', message: 'profile 1: url must be https', hint: 'Fix the file.' },
    }));
    render(<SettingsView />);
    const file = new File(['{"profiles":[]}'], 'clusters.json', { type: 'application/json' });
    await act(async () => fireEvent.change(screen.getByLabelText('Cluster file to import'), { target: { files: [file] } }));
    await settle();
    expect(stub.calls.find(([c]) => c === 'profiles.import')?.[1]).toEqual({ json: '{"profiles":[]}' });
    expect(screen.getByRole('alert').textContent).toContain('Invalid input');
    expect(screen.getByRole('alert').textContent).toContain('url must be https');
  });

  it('opens the wizard when asked from another view', async () => {
    render(<SettingsView />);
    act(() => useSettings.getState().openConnectWizard());
    await settle();
    expect(screen.getByRole('dialog', { name: 'Connect a cluster' })).toBeTruthy();
    expect(useSettings.getState().connectWizardRequested).toBe(false);
  });
});
