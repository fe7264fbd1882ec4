/**
 * The renderer's side of the secret rules: a secret too short to be real is
 * said at the field before anything is sent (the wizard and the secret
 * dialog), and a URL with a user and password is refused in the wizard
 * with the shared schema's words.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useSettings } from '../../../renderer/src/stores/settings';
import { SettingsView } from '../../../renderer/src/views/settings/SettingsView';
import { ConnectWizard } from '../../../renderer/src/views/settings/wizard/ConnectWizard';
import { defaultSettings } from '../../../shared/domain/profile';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { profile, profilesList, report } from './reports';

let stub: StubApi;
beforeEach(() => {
  stub = createStubApi();
  stub.answer('doctor.run', () => ({ ok: true, value: report() }));
  stub.answer('profiles.save', () => ({ ok: true, value: profile() }));
  useDoctor.setState({ api: stub.api, runs: {} });
  useProfiles.setState({ api: stub.api, list: profilesList([]) });
  useSettings.setState({ api: stub.api, settings: defaultSettings, error: undefined, connectWizardRequested: false });
});
afterEach(cleanup);

const sent = (channel: string) => stub.calls.filter(([c]) => c === channel);

describe('connect wizard', () => {
  const dialog = () => screen.getByRole('dialog', { name: 'Connect a cluster' });
  const type = (label: string, value: string) => fireEvent.change(within(dialog()).getByLabelText(label), { target: { value } });

  it('says a short secret is too short, and runs nothing', async () => {
    render(<ConnectWizard onClose={() => undefined} />);
    type('Cluster URL', 'https://127.0.0.1:8006');
    type('Token ID', 'proxy@pve!ops');
    type('Token secret', 'Zq9-short');
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Check connection' })));
    expect(sent('doctor.run')).toHaveLength(0);
    expect(within(dialog()).getByLabelText('Token secret').getAttribute('aria-invalid')).toBe('true');
    expect(dialog().textContent).toMatch(/too short to be real/);
  });

  it('refuses a URL with a user and password, and runs nothing', async () => {
    render(<ConnectWizard onClose={() => undefined} />);
    type('Cluster URL', 'https://root:pw@127.0.0.1:8006');
    type('Token ID', 'proxy@pve!ops');
    type('Token secret', '2f0e4c1a-7b3d-4e5f-9a8b-1c2d3e4f5a6b');
    await act(async () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Check connection' })));
    expect(sent('doctor.run')).toHaveLength(0);
    expect(dialog().textContent).toMatch(/user name or password/);
  });
});

describe('secret dialog', () => {
  it('says a short secret is too short, sends nothing, then sends a real one', async () => {
    useProfiles.setState({ list: profilesList([profile({ secretAvailable: false })]) });
    render(<SettingsView />);
    fireEvent.click(screen.getByRole('button', { name: 'Enter the token secret for homelab' }));
    const dialog = screen.getByRole('dialog', { name: 'Token secret for homelab' });
    const input = within(dialog).getByLabelText('Token secret');
    fireEvent.change(input, { target: { value: 'Zq9-short' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save secret' })));
    expect(sent('profiles.save')).toHaveLength(0);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.textContent).toMatch(/too short to be real/);

    fireEvent.change(input, { target: { value: '2f0e4c1a-7b3d-4e5f-9a8b-1c2d3e4f5a6b' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save secret' })));
    expect(sent('profiles.save')).toHaveLength(1);
  });
});
