/**
 * The ways into Create proxy: "New proxy" on the Overview and in the
 * (empty) Proxies view, each naming Ctrl+N in its tooltip; the dialog
 * opens with focus on its first field.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/src/App';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useUi } from '../../../renderer/src/stores/ui';
import { useCreateDialog } from '../../../renderer/src/views/create/open-state';
import { giveElementsHeight } from '../proxies/data';
import { setUp } from './fixtures';

beforeAll(() => giveElementsHeight(600));
beforeEach(() => {
  setUp();
  useCreateDialog.setState({ open: false });
});
afterEach(cleanup);

describe('New proxy', () => {
  it('on the Overview: one click opens Create proxy with focus on the first field; the tooltip names Ctrl+N', async () => {
    useUi.setState({ view: 'overview' });
    render(<App />);
    const button = within(screen.getByRole('toolbar', { name: 'Overview actions' })).getByRole('button', { name: 'New proxy' });
    expect(button.getAttribute('title')).toContain('Ctrl+N');
    expect(button.getAttribute('aria-keyshortcuts')).toBe('Control+N');
    await act(async () => fireEvent.click(button));
    const dialog = screen.getByRole('dialog', { name: 'Create proxy' });
    expect(document.activeElement).toBe(within(dialog).getByRole('combobox', { name: 'Cluster' }));
  });

  it('in the empty Proxies view: New proxy in the toolbar and in the empty state, both with Ctrl+N in the tooltip', async () => {
    act(() => useInventory.setState((s) => ({ clusters: s.clusters.map((c) => ({ ...c, vms: [] })) })));
    useUi.setState({ view: 'proxies' });
    render(<App />);
    expect(screen.getByText('No proxies yet')).toBeTruthy();
    const buttons = [screen.getByRole('button', { name: 'New proxy' }), screen.getByRole('button', { name: 'Create the first proxy' })];
    for (const b of buttons) expect(b.getAttribute('title')).toContain('Ctrl+N');
    await act(async () => fireEvent.click(buttons[1]!));
    expect(screen.getByRole('dialog', { name: 'Create proxy' })).toBeTruthy();
  });
});
