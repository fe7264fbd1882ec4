/**
 * The Scheduled checks settings: the interval checked with the shared schema
 * before anything is sent (a refused value named in words, "Saved." not
 * shown); a valid change sent as `settings.set`, with the clusters left out
 * by their switches and the battery pause.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/domain/profile';
import { useProfiles } from '../../../renderer/src/stores/profiles';
import { useSettings } from '../../../renderer/src/stores/settings';
import { ChecksSection } from '../../../renderer/src/views/settings/ChecksSection';
import { createStubApi, type StubApi } from '../../support/stub-api';

let stub: StubApi;
const profile = (id: string, name: string, demo: boolean) =>
  ({
    id,
    name,
    demo,
    secretAvailable: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }) as never;

beforeEach(() => {
  stub = createStubApi();
  stub.answer('settings.set', (input) => ({ ok: true, value: { ...defaultSettings, ...(input as { settings: object }).settings } }));
  useSettings.setState({ api: stub.api, settings: defaultSettings, error: undefined });
  useProfiles.setState({
    list: {
      profiles: [profile('demo', 'Demo cluster (simulated)', true), profile('p1', 'Home lab', false)],
      vault: { kind: 'keyring', protected: true, detail: '' },
    },
  });
});
afterEach(cleanup);

const interval = () => screen.getByLabelText('Every (minutes)') as HTMLInputElement;
const sent = () => stub.calls.filter(([c]) => c === 'settings.set').map(([, input]) => input);
const save = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save checks' })));

describe('the scheduled checks settings', () => {
  it('refuses an interval of 0 in words and sends nothing', async () => {
    render(<ChecksSection />);
    expect(interval().placeholder).toBe('5 (default)');
    fireEvent.change(interval(), { target: { value: '0' } });
    await save();
    expect(sent()).toEqual([]);
    expect(screen.getByText('Check at most once a minute.')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('sends the interval, the battery pause and the clusters switched off', async () => {
    render(<ChecksSection />);
    fireEvent.change(interval(), { target: { value: '15' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Pause checks while this computer runs on battery/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Demo cluster (simulated)' }));
    await save();
    expect(sent()).toEqual([
      {
        settings: {
          checksEnabled: true,
          checkIntervalMinutes: 15,
          checkConcurrency: 4,
          pauseChecksOnBattery: true,
          checksOffClusters: ['demo'],
        },
      },
    ]);
    expect(screen.getByRole('status').textContent).toBe('Saved.');
    expect((screen.getByRole('checkbox', { name: 'Demo cluster (simulated)' }) as HTMLInputElement).checked).toBe(false);
  });
});
