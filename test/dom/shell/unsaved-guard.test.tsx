/**
 * Leaving Settings with unsaved edits asks first: the Nav and the Ctrl+1…7
 * shortcuts raise "Leave without saving?"; Stay keeps the edits on screen,
 * Leave goes and drops them. Saved or untouched sections never ask, and a
 * re-read of the settings (the link came back) keeps an edit in progress.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/domain/profile';
import { App } from '../../../renderer/src/App';
import { useSettings } from '../../../renderer/src/stores/settings';
import { useUi } from '../../../renderer/src/stores/ui';
import { useUnsaved } from '../../../renderer/src/stores/unsaved';
import { createStubApi, type StubApi } from '../../support/stub-api';

let stub: StubApi;

beforeEach(() => {
  stub = createStubApi();
  stub.answer('settings.set', (input) => ({ ok: true, value: { ...defaultSettings, ...(input as { settings: object }).settings } }));
  useSettings.setState({ api: stub.api, settings: defaultSettings, error: undefined });
  useUi.setState({ view: 'settings' });
  useUnsaved.setState({ sections: {}, pendingView: undefined });
});
afterEach(cleanup);

const urlField = () => screen.getByLabelText<HTMLInputElement>('Proxy check URL');
const nav = (name: string) => fireEvent.click(screen.getByRole('button', { name: new RegExp(`^${name}$`) }));
const leaveDialog = () => screen.queryByRole('dialog', { name: 'Leave without saving?' });

describe('the unsaved guard', () => {
  it('asks before the Nav leaves an edited section; Cancel stays with the edit', () => {
    render(<App />);
    fireEvent.change(urlField(), { target: { value: 'https://example.org/ip' } });
    expect(useUnsaved.getState().sections).toEqual({ 'settings.general': 'Polling and checks' });
    nav('Overview');
    expect(leaveDialog()).not.toBeNull();
    expect(leaveDialog()!.textContent).toContain('Polling and checks has changes that are not saved');
    expect(useUi.getState().view).toBe('settings');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(leaveDialog()).toBeNull();
    expect(useUi.getState().view).toBe('settings');
    expect(urlField().value).toBe('https://example.org/ip');
  });

  it('leaves and drops the edits when the user says so', () => {
    render(<App />);
    fireEvent.change(urlField(), { target: { value: 'https://example.org/ip' } });
    nav('Tasks');
    fireEvent.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(useUi.getState().view).toBe('tasks');
    expect(useUnsaved.getState().sections).toEqual({});
    act(() => useUi.getState().setView('settings'));
    expect(urlField().value).toBe(defaultSettings.proxyCheckUrl);
  });

  it('asks on the keyboard shortcut too', () => {
    render(<App />);
    fireEvent.change(screen.getByLabelText('Tasks per node'), { target: { value: '3' } });
    fireEvent.keyDown(window, { key: '1', ctrlKey: true });
    expect(leaveDialog()).not.toBeNull();
    expect(leaveDialog()!.textContent).toContain('Work at once has changes');
    expect(useUi.getState().view).toBe('settings');
  });

  it('does not ask once the edit is saved, nor when nothing was edited', async () => {
    render(<App />);
    fireEvent.change(urlField(), { target: { value: 'https://example.org/ip' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save polling and checks' })));
    expect(useUnsaved.getState().sections).toEqual({});
    nav('Overview');
    expect(leaveDialog()).toBeNull();
    expect(useUi.getState().view).toBe('overview');
  });

  it('an edit back to the saved value is no longer unsaved', () => {
    render(<App />);
    fireEvent.change(urlField(), { target: { value: 'https://example.org/ip' } });
    fireEvent.change(urlField(), { target: { value: defaultSettings.proxyCheckUrl } });
    expect(useUnsaved.getState().sections).toEqual({});
  });

  it('keeps an edit in progress when the settings are read again', () => {
    render(<App />);
    fireEvent.change(urlField(), { target: { value: 'https://example.org/ip' } });
    act(() => useSettings.setState({ settings: { ...defaultSettings, cleanupGraceMinutes: 30 } }));
    expect(urlField().value).toBe('https://example.org/ip');
  });

  it('refuses empty and out-of-range numbers in words', async () => {
    render(<App />);
    fireEvent.change(screen.getByLabelText('Health check every (seconds)'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Cleanup grace (minutes)'), { target: { value: '0' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save polling and checks' })));
    expect(stub.calls.filter(([c]) => c === 'settings.set')).toHaveLength(0);
    const text = document.body.textContent ?? '';
    expect(text).toContain('The health check interval must be a number of seconds.');
    expect(text).toContain('Give a cleanup grace of at least 1 minute.');
  });
});
