/**
 * The task limits in Settings: three optional numbers, each empty for its
 * default (shown with its bounds and why), checked with the shared schema
 * before anything is sent; a refused value is named in words next to its
 * field and "Saved." is not shown; a valid change is sent as
 * `settings.set { taskLimits }`, leaving out the empty ones.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/domain/profile';
import { useSettings } from '../../../renderer/src/stores/settings';
import { TaskLimitsSection } from '../../../renderer/src/views/settings/TaskLimitsSection';
import { createStubApi, type StubApi } from '../../support/stub-api';

let stub: StubApi;

beforeEach(() => {
  stub = createStubApi();
  stub.answer('settings.set', (input) => ({ ok: true, value: { ...defaultSettings, ...(input as { settings: object }).settings } }));
  useSettings.setState({ api: stub.api, settings: defaultSettings, error: undefined });
});
afterEach(cleanup);

const perNode = () => screen.getByLabelText('Tasks per node') as HTMLInputElement;
const clones = () => screen.getByLabelText('Full clones per storage') as HTMLInputElement;
const global = () => screen.getByLabelText('Tasks in all') as HTMLInputElement;
const status = () => screen.getByRole('status').textContent;
const sent = () => stub.calls.filter(([c]) => c === 'settings.set').map(([, input]) => input);
const save = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save limits' })));
const problemOf = (input: HTMLInputElement) =>
  document.getElementById((input.getAttribute('aria-describedby') ?? '').split(' ').find((id) => id.endsWith('-problem')) ?? '')
    ?.textContent;
const helpOf = (input: HTMLInputElement) =>
  document.getElementById((input.getAttribute('aria-describedby') ?? '').split(' ').find((id) => id.endsWith('-help')) ?? '')?.textContent;

describe('the task limits settings', () => {
  it('shows each field empty with its default, bounds and reason', () => {
    render(<TaskLimitsSection />);
    expect([perNode().value, clones().value, global().value]).toEqual(['', '', '']);
    expect(perNode().placeholder).toBe('4 (default)');
    expect(helpOf(perNode())).toContain('1–64, default 4');
    expect(helpOf(perNode())).toContain("Proxmox's own bulk actions run 4 at once unless datacenter.cfg max_workers says otherwise");
    expect(clones().placeholder).toBe('2 (default)');
    expect(helpOf(clones())).toContain('1–16, default 2');
    expect(helpOf(clones())).toContain("Each full clone copies the template's disk; more at once share the disk's bandwidth");
    expect(global().placeholder).toBe('12 (default)');
    expect(helpOf(global())).toContain('1–64, default 12');
  });

  it('shows the saved limits', () => {
    useSettings.setState({ settings: { ...defaultSettings, taskLimits: { clonesPerStorage: 3 } } });
    render(<TaskLimitsSection />);
    expect([perNode().value, clones().value, global().value]).toEqual(['', '3', '']);
  });

  it('sends the numbers given and leaves out the empty ones', async () => {
    render(<TaskLimitsSection />);
    fireEvent.change(clones(), { target: { value: '1' } });
    fireEvent.change(global(), { target: { value: ' 20 ' } });
    await save();
    expect(sent()).toEqual([{ settings: { taskLimits: { clonesPerStorage: 1, global: 20 } } }]);
    expect(status()).toBe('Saved.');
  });

  it('sends an empty set when every field is emptied: all defaults', async () => {
    useSettings.setState({ settings: { ...defaultSettings, taskLimits: { perNode: 8 } } });
    render(<TaskLimitsSection />);
    fireEvent.change(perNode(), { target: { value: '' } });
    await save();
    expect(sent()).toEqual([{ settings: { taskLimits: {} } }]);
  });

  it.each([
    ['Tasks per node', '0', 'Allow at least 1 task per node.'],
    ['Tasks per node', '65', 'Allow at most 64 tasks per node'],
    ['Tasks per node', '2.5', 'Tasks per node must be a whole number.'],
    ['Tasks per node', 'four', 'Tasks per node must be a number.'],
    ['Full clones per storage', '17', 'Allow at most 16 clones per storage.'],
    ['Full clones per storage', '0', 'Allow at least 1 clone per storage.'],
    ['Tasks in all', '100', 'Allow at most 64 tasks in all.'],
  ])('refuses %s = %j in words, sends nothing and never says "Saved."', async (label, value, words) => {
    render(<TaskLimitsSection />);
    fireEvent.change(global(), { target: { value: '10' } });
    await save();
    expect(status()).toBe('Saved.');

    const input = screen.getByLabelText(label) as HTMLInputElement;
    fireEvent.change(input, { target: { value } });
    expect(status()).toBe('');
    await save();
    expect(sent()).toHaveLength(1);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(problemOf(input)).toContain(words);
    expect(status()).toBe('');
  });

  it('shows a refusal from main and does not say "Saved."', async () => {
    stub.answer('settings.set', () => ({
      ok: false,
      error: { kind: 'permanent', message: 'The settings file could not be written.', hint: 'Check the disk.' },
    }));
    render(<TaskLimitsSection />);
    fireEvent.change(perNode(), { target: { value: '2' } });
    await save();
    expect(screen.getByText('The settings file could not be written.')).toBeTruthy();
    expect(status()).toBe('');
  });
});
