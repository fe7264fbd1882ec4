import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../../renderer/src/App';
import { useInventory } from '../../../renderer/src/stores/inventory';
import { useUi } from '../../../renderer/src/stores/ui';
import { useCreateDialog } from '../../../renderer/src/views/create/open-state';
import { giveElementsHeight, snapshot, vm } from '../proxies/data';

describe('keyboard shortcuts of the proxies views', () => {
  beforeAll(() => giveElementsHeight(600));
  afterEach(() => {
    cleanup();
    useCreateDialog.setState({ open: false });
  });

  it('Ctrl+N opens Create proxy from any view, and not while another dialog is open', () => {
    useUi.setState({ view: 'tasks' });
    render(<App />);
    fireEvent.keyDown(window, { key: 'n', ctrlKey: true });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Proxies');
    expect(screen.getByRole('dialog', { name: 'Create proxy' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Create proxy' }), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Delete does nothing without a selection, and "/" puts the cursor in the search box', () => {
    act(() => useInventory.getState().applySnapshot(snapshot([vm(101)])));
    useUi.setState({ view: 'proxies' });
    render(<App />);
    fireEvent.keyDown(document.body, { key: 'Delete' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search proxies' }));
  });
});
