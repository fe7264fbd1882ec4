import { describe, expect, it } from 'vitest';
import { channelNames } from '../../shared/contract';
import { AppError } from '../../main/errors/app-error';
import { createRouter, type Handlers } from '../../main/ipc/router';
import { createMemoryLogger } from '../../main/log/logger';

const ctx = { signal: new AbortController().signal, transport: 'test' };

/** Every channel bound: the app ones answer, the rest refuse with a classified error. */
function handlers(): Handlers {
  const all = Object.fromEntries(
    channelNames.map((c) => [
      c,
      () => {
        throw new AppError('transient', `${c} is not part of this test`, 'none');
      },
    ]),
  ) as unknown as Handlers;
  return {
    ...all,
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

  it('refuses to build with a declared channel unbound', () => {
    const h = handlers() as Partial<Handlers>;
    delete h['app.echo'];
    expect(() => createRouter(h as Handlers, createMemoryLogger())).toThrow(/missing handlers \[app.echo\]/);
  });

  it('refuses to build with a handler for an undeclared channel', () => {
    const h = { ...handlers(), 'app.shutdown': () => ({}) } as unknown as Handlers;
    expect(() => createRouter(h, createMemoryLogger())).toThrow(/undeclared handlers \[app.shutdown\]/);
  });

  it('binds every declared channel', () => {
    expect(createRouter(handlers(), createMemoryLogger()).channels).toEqual(channelNames);
  });

  it('turns a thrown AppError into its envelope, and anything else into a generic error without a stack', async () => {
    const logger = createMemoryLogger();
    const h = handlers();
    const r = createRouter({ ...h, 'app.echo': () => Promise.reject(new Error('secret internals at /home/x')) }, logger);
    const failed = await r.dispatch('app.echo', { text: 'x' }, ctx);
    expect(failed).toMatchObject({ ok: false, error: { kind: 'transient' } });
    expect(JSON.stringify(failed)).not.toContain('internals');
    expect(logger.lines.some((l) => l.includes('secret internals'))).toBe(true);
  });

  it('refuses an answer that is outside the contract', async () => {
    const r = createRouter({ ...handlers(), 'app.echo': () => ({ text: 5 }) as unknown as { text: string } }, createMemoryLogger());
    expect(await r.dispatch('app.echo', { text: 'x' }, ctx)).toMatchObject({ ok: false, error: { kind: 'transient' } });
  });
});
