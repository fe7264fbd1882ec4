/**
 * While main is unreachable, every view says its data is stale (one banner,
 * the view drawn as stale) and the main actions are off with the reason;
 * when the link is back they are on again, every store re-reads (the
 * reconnect listeners run), and a change whose answer the drop took with it
 * is shown as "Unknown outcome: check Tasks".
 */
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../renderer/src/App';
import { actionsOffReason, clockTime, useActionsAvailable, useConnection } from '../../../renderer/src/stores/connection';
import { useUi } from '../../../renderer/src/stores/ui';
import { NewProxyButton } from '../../../renderer/src/views/create/NewProxyButton';

beforeEach(() => {
  useConnection.setState({ link: 'open', lostAt: undefined, reconnects: 0, unknownOutcomes: [] });
  useUi.setState({ view: 'overview' });
});
afterEach(cleanup);

describe('useActionsAvailable', () => {
  it('is on while connected, off with the reason while not, and on again once back', () => {
    const { result } = renderHook(() => useActionsAvailable());
    expect(result.current).toEqual({ enabled: true, reason: undefined });
    act(() => useConnection.getState().setLink('closed'));
    expect(result.current).toEqual({ enabled: false, reason: actionsOffReason });
    // Trying again is still not connected.
    act(() => useConnection.getState().setLink('connecting'));
    expect(result.current.enabled).toBe(false);
    act(() => useConnection.getState().setLink('open'));
    expect(result.current).toEqual({ enabled: true, reason: undefined });
  });

  it('stays on while the first connection is still being made', () => {
    useConnection.setState({ link: 'connecting' });
    const { result } = renderHook(() => useActionsAvailable());
    expect(result.current.enabled).toBe(true);
  });

  it('turns an action button off with the reason as its title', () => {
    render(<NewProxyButton />);
    const button = screen.getByRole('button', { name: 'New proxy' });
    expect(button.hasAttribute('disabled')).toBe(false);
    act(() => useConnection.getState().setLink('closed'));
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('title')).toBe(actionsOffReason);
  });
});

describe('the stale banner and the reconnect', () => {
  it('says since when the data is stale, draws the view as stale, and clears both when back', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 0, 5, 12, 3, 14));
    try {
      render(<App />);
      expect(screen.queryByRole('alert', { name: 'Not connected' })).toBeNull();
      act(() => useConnection.getState().setLink('closed'));
      const banner = screen.getByRole('alert', { name: 'Not connected' });
      expect(clockTime(Date.now())).toBe('12:03:14');
      expect(banner.textContent).toContain('Not connected to Egress Desk since 12:03:14 — showing data from then');
      expect(document.querySelector('.stale-frame')?.getAttribute('data-stale')).toBe('true');
      act(() => useConnection.getState().setLink('open'));
      expect(screen.queryByRole('alert', { name: 'Not connected' })).toBeNull();
      expect(document.querySelector('.stale-frame')?.hasAttribute('data-stale')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs the reconnect listeners (every store re-reads) only after a loss', () => {
    const reread = vi.fn();
    const off = useConnection.getState().onReconnect(reread);
    act(() => useConnection.getState().setLink('open'));
    expect(reread).not.toHaveBeenCalled();
    act(() => useConnection.getState().setLink('closed'));
    act(() => useConnection.getState().setLink('connecting'));
    act(() => useConnection.getState().setLink('open'));
    expect(reread).toHaveBeenCalledTimes(1);
    expect(useConnection.getState().reconnects).toBe(1);
    off();
  });

  it('names a change whose answer was lost as an unknown outcome, with a way to Tasks', () => {
    render(<App />);
    act(() => {
      useConnection.getState().setLink('closed');
      useConnection.getState().addUnanswered({ id: 7, channel: 'tasks.createProxies', sentAt: Date.now() });
    });
    // While not connected, the stale banner speaks; the outcome waits until main can be asked.
    expect(screen.queryByRole('region', { name: 'Unknown outcome' })).toBeNull();
    act(() => useConnection.getState().setLink('open'));
    const notice = screen.getByRole('region', { name: 'Unknown outcome' });
    expect(notice.textContent).toContain('Unknown outcome: check Tasks.');
    expect(notice.textContent).toContain('Create proxy');
    act(() => screen.getByRole('button', { name: 'Open Tasks' }).click());
    expect(useUi.getState().view).toBe('tasks');
    expect(screen.queryByRole('region', { name: 'Unknown outcome' })).toBeNull();
  });
});
