/** The shell's keyboard help: the skip link comes first, and `?` lists every shortcut of the app. */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/src/App';
import { focusableIn } from '../../renderer/src/components/common/focusable';
import { useUi, views } from '../../renderer/src/stores/ui';

describe('keyboard help in the shell', () => {
  beforeEach(() => useUi.setState({ view: 'overview', theme: 'system' }));
  afterEach(cleanup);

  it('has a skip link as the first focusable element, moving focus to the main content', () => {
    const { container } = render(<App />);
    const first = focusableIn(container)[0]!;
    expect(first.textContent).toBe('Skip to main content');
    fireEvent.click(first);
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('opens the list of every shortcut with ?, not while typing, and closes it with Escape', () => {
    render(<App />);
    const input = document.createElement('input');
    document.body.append(input);
    fireEvent.keyDown(input, { key: '?' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
    input.remove();

    fireEvent.keyDown(window, { key: '?' });
    const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    views.forEach((v, i) => {
      expect(within(help).getByText(`Ctrl+${i + 1}`)).toBeTruthy();
      expect(within(help).getByText(`Go to ${v.label}`)).toBeTruthy();
    });
    for (const key of ['Ctrl+N', 'Ctrl+F', '/', '?', '↑', '↓', 'Space', 'Enter', 'Delete', 'Home', 'End'])
      expect(within(help).getAllByText(key, { selector: 'kbd' }).length).toBeGreaterThan(0);
    act(() => fireEvent.keyDown(help, { key: 'Escape' }));
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });
});
