import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/src/App';
import { useConnection } from '../../renderer/src/stores/connection';
import { useUi } from '../../renderer/src/stores/ui';
import { createStubApi } from '../support/stub-api';

const info = {
  name: 'Egress Desk',
  version: '1.2.3',
  mode: 'browser' as const,
  runtime: { node: '22', electron: null, chrome: null, platform: 'linux' },
};

describe('renderer shell', () => {
  beforeEach(() => {
    useUi.setState({ view: 'overview', theme: 'system' });
    useConnection.setState({ link: 'connecting', info: undefined, lastStatus: undefined, error: undefined });
  });
  afterEach(cleanup);

  it('loads app.version into the store and shows it', async () => {
    const stub = createStubApi();
    stub.answer('app.version', () => ({ ok: true, value: info }));
    useConnection.getState().attach(stub.api);
    useConnection.getState().setLink('open');
    render(<App />);
    expect(await screen.findByLabelText('Version')).toHaveProperty('textContent', 'v1.2.3');
    expect(screen.getByRole('status', { name: 'Connection' }).textContent).toContain('Connected to main');
  });

  it('applies pushed app.status events', async () => {
    const stub = createStubApi();
    stub.answer('app.version', () => ({ ok: true, value: info }));
    useConnection.getState().attach(stub.api);
    render(<App />);
    act(() => stub.push('app.status', { uptimeSeconds: 42.7, at: 'now' }));
    expect((await screen.findByLabelText('Main uptime')).textContent).toBe('main up 42 s');
  });

  it('keeps an error from app.version in the store instead of throwing', async () => {
    const stub = createStubApi();
    stub.answer('app.version', () => ({ ok: false, error: { kind: 'transient', message: 'down', hint: 'wait' } }));
    useConnection.getState().attach(stub.api);
    await act(async () => undefined);
    expect(useConnection.getState().error).toMatchObject({ kind: 'transient' });
  });

  it('says when the link to main is lost', () => {
    useConnection.getState().setLink('closed');
    render(<App />);
    expect(screen.getByRole('status', { name: 'Connection' }).textContent).toContain('Disconnected from main');
  });

  it('switches views with Ctrl+number', () => {
    render(<App />);
    fireEvent.keyDown(window, { key: '8', ctrlKey: true });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Settings');
  });
});
