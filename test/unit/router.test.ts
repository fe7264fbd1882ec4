import { describe, expect, it } from 'vitest';
import { channelNames } from '../../shared/contract';
import { createRouter, type Handlers } from '../../main/ipc/router';
import { createMemoryLogger } from '../../main/log/logger';

const ctx = { signal: new AbortController().signal, transport: 'test' };

function handlers(): Handlers {
  return {
    'app.version': () => ({
      name: 'Egress Desk',
      version: '0.0.0',
      mode: 'browser',
      runtime: { node: process.version, electron: null, chrome: null, platform: process.platform },
    }),
    'app.echo': ({ text }) => ({ text }),
  };
}

describe('router', () => {
  it('answers a valid request with an ok envelope', async () => {
    const r = createRouter(handlers(), createMemoryLogger());
    expect(await r.dispatch('app.echo', { text: 'hi' }, ctx)).toEqual({ ok: true, value: { text: 'hi' } });
  });
  it('refuses a router with a declared channel unbound', () => {
    const h = handlers() as Partial<Handlers>;
    delete h['app.echo'];
    expect(() => createRouter(h as Handlers, createMemoryLogger())).toThrow(/missing handlers \[app.echo\]/);
  });
  it('binds every declared channel', () => {
    expect(createRouter(handlers(), createMemoryLogger()).channels).toEqual(channelNames);
  });
});
