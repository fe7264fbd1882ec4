/**
 * The preload under a stand-in electron module: it exposes exactly one
 * object, with one function per request channel and one subscribe per
 * event, and nothing that reaches ipcRenderer generically.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { DesktopApi } from '../../shared/api';
import { ipcEventChannel, ipcRequestChannel } from '../../shared/api';
import { channelNames, eventNames } from '../../shared/contract';
import type { FakeElectron } from '../support/fake-electron';

const fake: FakeElectron = vi.hoisted(() => ({}) as FakeElectron);
vi.mock('electron', async () => {
  const { createFakeElectron } = await import('../support/fake-electron');
  Object.assign(fake, createFakeElectron());
  return fake.module;
});

describe('preload', () => {
  let api: DesktopApi;
  beforeAll(async () => {
    await import('../../main/preload/index');
    api = fake.exposed.get('egressDesk') as DesktopApi;
  });

  it('exposes one object, egressDesk, and nothing else', () => {
    expect([...fake.exposed.keys()]).toEqual(['egressDesk']);
    expect(Object.keys(api).sort()).toEqual(['on', 'request', 'transport']);
    expect(api.transport).toBe('electron');
  });

  it('has a function per request channel and a subscribe per event, exactly', () => {
    expect(Object.keys(api.request).sort()).toEqual([...channelNames].sort());
    expect(Object.keys(api.on).sort()).toEqual([...eventNames].sort());
  });

  it('sends each request on its own channel', async () => {
    await api.request['app.echo']({ text: 'x' });
    expect(fake.invoked).toContainEqual([ipcRequestChannel('app.echo'), { text: 'x' }]);
  });

  it('subscribes and unsubscribes listeners', () => {
    const seen: unknown[] = [];
    const off = api.on['app.status']((p) => seen.push(p));
    const channel = ipcEventChannel('app.status');
    for (const l of fake.rendererListeners.get(channel) ?? []) l({}, { uptimeSeconds: 1, at: 'now' });
    expect(seen).toEqual([{ uptimeSeconds: 1, at: 'now' }]);
    off();
    expect(fake.rendererListeners.get(channel)?.size).toBe(0);
  });

  it('the built preload bundle needs no module but electron (the sandbox allows nothing else)', (ctx) => {
    const bundle = join(import.meta.dirname, '..', '..', 'out', 'preload', 'index.cjs');
    if (!existsSync(bundle)) {
      ctx.skip('out/preload/index.cjs is not built: run `npm run build` first');
      return;
    }
    const requires = [...readFileSync(bundle, 'utf8').matchAll(/require\((["'])([^"']+)\1\)/g)].map((m) => m[2]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
  });
});
