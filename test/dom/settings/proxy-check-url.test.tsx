/**
 * The proxy check URL in Settings: checked with the shared schema before it
 * is sent, a refused value named in words next to the field and never
 * followed by "Saved."; a refusal from main is shown too, also without "Saved.".
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/domain/profile';
import { useSettings } from '../../../renderer/src/stores/settings';
import { GeneralSection } from '../../../renderer/src/views/settings/GeneralSection';
import { createStubApi, type StubApi } from '../../support/stub-api';

let stub: StubApi;

beforeEach(() => {
  stub = createStubApi();
  stub.answer('settings.set', (input) => ({ ok: true, value: { ...defaultSettings, ...(input as { settings: object }).settings } }));
  useSettings.setState({ api: stub.api, settings: defaultSettings, error: undefined });
});
afterEach(cleanup);

const field = () => screen.getByLabelText('Proxy check URL');
const status = () => screen.getByRole('status').textContent;
async function saveWith(value: string) {
  fireEvent.change(field(), { target: { value } });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save polling and checks' })));
}
const sent = () => stub.calls.filter(([c]) => c === 'settings.set').map(([, input]) => input);

describe('the proxy check URL setting', () => {
  it.each([
    ['file://x', 'not file: URLs'],
    ['not a url', 'This is not a URL'],
    ['', 'Enter the URL the check fetches'],
    ['ftp://x', 'not ftp: URLs'],
    ['http://u:p@x', 'must not hold a user name or password'],
  ])('refuses %j in words, sends nothing and never says "Saved."', async (value, words) => {
    render(<GeneralSection />);
    await saveWith('https://ifconfig.me/ip');
    expect(status()).toBe('Saved.');

    await saveWith(value);
    expect(sent()).toHaveLength(1);
    expect(field().getAttribute('aria-invalid')).toBe('true');
    const problem = document.getElementById(
      field()
        .getAttribute('aria-describedby')!
        .split(' ')
        .find((id) => id.endsWith('-problem'))!,
    );
    expect(problem?.textContent).toContain(words);
    expect(status()).toBe('');
  });

  it('saves a valid URL and says so', async () => {
    render(<GeneralSection />);
    await saveWith('http://127.0.0.1:8080/ip');
    expect(sent()).toEqual([{ settings: expect.objectContaining({ proxyCheckUrl: 'http://127.0.0.1:8080/ip' }) }]);
    expect(field().getAttribute('aria-invalid')).toBeNull();
    expect(status()).toBe('Saved.');
  });

  it('clears an earlier "Saved." as soon as another save starts', async () => {
    render(<GeneralSection />);
    await saveWith('https://ifconfig.me/ip');
    expect(status()).toBe('Saved.');
    let release: () => void = () => undefined;
    stub.answer('settings.set', () => new Promise((resolve) => (release = () => resolve({ ok: true, value: defaultSettings }))));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save polling and checks' })));
    expect(status()).toBe('');
    await act(async () => release());
    expect(status()).toBe('Saved.');
  });

  it('shows a refusal from main and does not say "Saved."', async () => {
    render(<GeneralSection />);
    await saveWith('https://ifconfig.me/ip');
    expect(status()).toBe('Saved.');
    stub.answer('settings.set', () => ({
      ok: false,
      error: { kind: 'invalid-input', message: 'Invalid value for settings.proxyCheckUrl: no.', hint: 'Correct the field.' },
    }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save polling and checks' })));
    expect(screen.getByRole('alert').textContent).toContain('Invalid value for settings.proxyCheckUrl: no.');
    expect(status()).toBe('');
  });
});
