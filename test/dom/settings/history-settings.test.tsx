/**
 * The History settings: the retention checked with the shared schema before
 * anything is sent (1-365 days, refused in words), a valid one sent as
 * `settings.set`; the database file and its size shown, and a file moved
 * aside or a database running in memory (or waiting for a locked file) said in plain words.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryStatusView } from '../../../shared/channels/history';
import { defaultSettings } from '../../../shared/domain/profile';
import { useSettings } from '../../../renderer/src/stores/settings';
import { HistorySection } from '../../../renderer/src/views/settings/HistorySection';
import { createStubApi, type StubApi } from '../../support/stub-api';

let stub: StubApi;
let status: HistoryStatusView;

beforeEach(() => {
  stub = createStubApi();
  status = { path: '/home/ada/.config/Egress Desk/history.sqlite', sizeBytes: 3 * 1024 * 1024, schemaVersion: 2, retentionDays: 30 };
  stub.answer('settings.set', (input) => ({ ok: true, value: { ...defaultSettings, ...(input as { settings: object }).settings } }));
  stub.answer('history.status', () => ({ ok: true, value: status }));
  useSettings.setState({ api: stub.api, settings: defaultSettings, error: undefined });
});
afterEach(cleanup);

const retention = () => screen.getByLabelText('Keep history for (days)') as HTMLInputElement;
const sent = () => stub.calls.filter(([c]) => c === 'settings.set').map(([, input]) => input);
const save = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save history' })));

describe('the history settings', () => {
  it('refuses 0 and 400 days in words and sends nothing', async () => {
    render(<HistorySection />);
    expect(retention().placeholder).toBe('30 (default)');
    fireEvent.change(retention(), { target: { value: '0' } });
    await save();
    expect(screen.getByText('Keep the history at least 1 day.')).toBeTruthy();
    fireEvent.change(retention(), { target: { value: '400' } });
    await save();
    expect(screen.getByText('Keep the history at most 365 days.')).toBeTruthy();
    expect(sent()).toEqual([]);
  });

  it('sends a valid retention and says Saved', async () => {
    render(<HistorySection />);
    fireEvent.change(retention(), { target: { value: '7' } });
    await save();
    expect(sent()).toEqual([{ settings: { historyRetentionDays: 7 } }]);
    expect(screen.getByText('Saved.')).toBeTruthy();
    expect(retention().value).toBe('7');
  });

  it('shows where the database is and how big', async () => {
    render(<HistorySection />);
    expect(await screen.findByText('/home/ada/.config/Egress Desk/history.sqlite')).toBeTruthy();
    expect(screen.getByText('3 MiB')).toBeTruthy();
    expect(screen.queryByText(/moved aside/)).toBeNull();
  });

  it('says when a corrupt file was moved aside, and where to', async () => {
    status = {
      ...status,
      movedAside: { path: '/data/history.sqlite.corrupt-2026-11-30T12-00-00-000Z', reason: 'failed its integrity check (…)' },
    };
    render(<HistorySection />);
    expect(await screen.findByText(/The history file failed its integrity check/)).toBeTruthy();
    expect(screen.getByText('/data/history.sqlite.corrupt-2026-11-30T12-00-00-000Z')).toBeTruthy();
  });

  it('says when history runs in memory, and what to do', async () => {
    status = { ...status, path: ':memory:', sizeBytes: 0, degraded: '/data/history.sqlite could not be created: disk I/O error' };
    render(<HistorySection />);
    expect(await screen.findByText(/is lost when the app closes/)).toBeTruthy();
    expect(screen.getByText('none: kept in memory until the app restarts')).toBeTruthy();
    expect(screen.queryByText('0 B')).toBeNull();
  });

  it('says when history waits in memory for a locked file, and that it moves in once the file is free', async () => {
    status = {
      ...status,
      path: ':memory:',
      sizeBytes: 0,
      degraded: '/data/history.sqlite could not be opened: it is locked by another program (database is locked (5))',
      reopening: true,
    };
    render(<HistorySection />);
    expect(await screen.findByText(/moves this session's history into it once the other program lets go of it/)).toBeTruthy();
    expect(screen.getByText('none yet: kept in memory while the file is locked')).toBeTruthy();
    expect(screen.queryByText(/is lost when the app closes/)).toBeNull();
  });
});
