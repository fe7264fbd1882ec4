import { act } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useDoctor } from '../../../renderer/src/stores/doctor';
import { useHealth } from '../../../renderer/src/stores/health';
import { clustersOf, useProfiles } from '../../../renderer/src/stores/profiles';
import { useSettings } from '../../../renderer/src/stores/settings';
import { useUi } from '../../../renderer/src/stores/ui';
import { defaultSettings } from '../../../shared/domain/profile';
import type { NodeHealth } from '../../../shared/channels/health';
import { createStubApi } from '../../support/stub-api';
import { profile, profilesList, report } from './reports';

const settle = () => act(async () => undefined);

function nodeHealth(node: string, ready: boolean, at: string): NodeHealth {
  return {
    node,
    ready,
    reason: ready ? 'Reachable' : 'Unreachable',
    message: '',
    hint: '',
    latencyMs: 12,
    details: {},
    checkedAt: at,
    nextCheckAt: at,
  };
}

describe('profiles store', () => {
  beforeEach(() => useProfiles.setState({ list: undefined, error: undefined, api: undefined }));

  it('loads the list, then takes each pushed change; demo first', async () => {
    const stub = createStubApi();
    stub.answer('profiles.list', () => ({ ok: true, value: profilesList([profile()]) }));
    useProfiles.getState().attach(stub.api);
    await settle();
    expect(useProfiles.getState().list?.profiles.map((p) => p.name)).toEqual(['homelab']);
    act(() => stub.push('profiles.changed', profilesList([profile(), profile({ id: 'demo', name: 'Demo', demo: true })])));
    expect(clustersOf(useProfiles.getState().list).map((p) => p.id)).toEqual(['demo', 'home']);
  });

  it('keeps a failed load as an error, and answers an error when used before attach', async () => {
    const stub = createStubApi();
    stub.answer('profiles.list', () => ({ ok: false, error: { kind: 'permanent', message: 'broken file', hint: 'look' } }));
    expect((await useProfiles.getState().remove('x')).ok).toBe(false);
    useProfiles.getState().attach(stub.api);
    await settle();
    expect(useProfiles.getState().error?.message).toBe('broken file');
  });
});

describe('settings store', () => {
  beforeEach(() => {
    useUi.setState({ theme: 'system' });
    useSettings.setState({ settings: undefined, error: undefined, api: undefined });
  });

  it("adopts main's theme, and sends a theme picked anywhere in the app back to main", async () => {
    const stub = createStubApi();
    let held = { ...defaultSettings, theme: 'dark' as const };
    stub.answer('settings.get', () => ({ ok: true, value: held }));
    stub.answer('settings.set', (input) => {
      held = { ...held, ...(input as { settings: typeof held }).settings };
      return { ok: true, value: held };
    });
    const off = useSettings.getState().attach(stub.api);
    await settle();
    expect(useUi.getState().theme).toBe('dark');
    act(() => useUi.getState().setTheme('light'));
    await settle();
    expect(stub.calls.filter(([c]) => c === 'settings.set').map(([, i]) => i)).toEqual([{ settings: { theme: 'light' } }]);
    expect(useSettings.getState().settings?.theme).toBe('light');
    off();
  });
});

describe('health store', () => {
  beforeEach(() => useHealth.setState({ clusters: {}, loaded: false, error: undefined, api: undefined }));

  it('applies updates after the snapshot, including those that came while it loaded', async () => {
    const stub = createStubApi();
    let release!: () => void;
    stub.answer('health.snapshot', async () => {
      await new Promise<void>((r) => (release = r));
      return { ok: true, value: { clusters: [{ clusterId: 'home', nodes: [{ node: 'pv1-1', latest: null, history: [] }] }] } };
    });
    useHealth.getState().attach(stub.api);
    const at = new Date().toISOString();
    act(() =>
      stub.push('health.update', {
        clusterId: 'home',
        node: 'pv1-1',
        latest: nodeHealth('pv1-1', false, at),
        point: { at, ready: false, reason: 'Unreachable', latencyMs: 12 },
      }),
    );
    expect(useHealth.getState().clusters.home).toBeUndefined();
    release();
    await settle();
    expect(useHealth.getState().clusters.home?.['pv1-1']?.latest?.reason).toBe('Unreachable');
    expect(useHealth.getState().clusters.home?.['pv1-1']?.history).toHaveLength(1);
  });

  it('lets go of points older than an hour', () => {
    useHealth.getState().applySnapshot({ clusters: [] });
    const old = new Date(Date.now() - 2 * 3600_000).toISOString();
    const now = new Date().toISOString();
    const point = (at: string) => ({ at, ready: true, reason: 'Reachable' as const, latencyMs: 5 });
    useHealth.getState().applyUpdate({ clusterId: 'c', node: 'n', latest: nodeHealth('n', true, old), point: point(old) });
    useHealth.getState().applyUpdate({ clusterId: 'c', node: 'n', latest: nodeHealth('n', true, now), point: point(now) });
    expect(useHealth.getState().clusters.c?.n?.history.map((p) => p.at)).toEqual([now]);
  });
});

describe('doctor store', () => {
  it('follows the progress of its own run and keeps the report under its key', async () => {
    const stub = createStubApi();
    let release!: () => void;
    stub.answer('doctor.run', async () => {
      await new Promise<void>((r) => (release = r));
      return { ok: true, value: report() };
    });
    useDoctor.getState().attach(stub.api);
    const done = useDoctor.getState().run('wizard', { url: 'https://127.0.0.1:8006' });
    const runId = (stub.calls.at(-1)![1] as { runId: string }).runId;
    act(() => stub.push('doctor.progress', { runId, step: 'tls', state: 'running' }));
    act(() => stub.push('doctor.progress', { runId: 'someone-else', step: 'token', state: 'running' }));
    const run = useDoctor.getState().runs.wizard!;
    expect(run.running).toBe(true);
    expect(run.steps.tls.state).toBe('running');
    expect(run.steps.token.state).toBe('waiting');
    release();
    await act(async () => void (await done));
    expect(useDoctor.getState().runs.wizard?.report?.ready).toBe(true);
    expect(useDoctor.getState().runs.wizard?.running).toBe(false);
  });
});
