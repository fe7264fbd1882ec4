/**
 * The topics every ntfy server refuses (ntfy's DefaultDisallowedTopics) are
 * refused by the shared schema, so main refuses `alerts.saveTarget` in the
 * same words the Settings form shows before saving, as invalid input on the
 * topic field; a topic that only starts like one is a topic.
 */
import { describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';

const reserved = ['app', 'docs', 'file', 'static', 'settings', 'account', 'login', 'signup', 'metrics', 'v1'];

describe('alerts.saveTarget and an ntfy topic ntfy keeps for itself', () => {
  const app = composeApp({
    mode: 'browser',
    version: '0',
    runtime: nodeRuntime(),
    logger: createMemoryLogger(),
    demo: 'off',
    secretVault: createMemoryVault(),
  });
  const save = (topic: string) =>
    app.router.dispatch(
      'alerts.saveTarget',
      { name: 'phone', format: 'ntfy', url: 'http://127.0.0.1:9', topic, enabled: true },
      { signal: new AbortController().signal, transport: 'test' },
    );

  it.each(reserved)('refuses "%s" in words, on the topic field', async (topic) => {
    expect(await save(topic)).toEqual({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'topic',
        message: `Invalid value for topic: ntfy keeps the topic "${topic}" for its own pages and API: every ntfy server refuses it. Choose another name.`,
        hint: 'Correct the field and try again.',
      },
    });
  });

  it('takes a topic that only looks like one', async () => {
    for (const topic of ['apps', 'v1-alerts', 'my-docs']) expect((await save(topic)).ok).toBe(true);
    await app.dispose();
  });
});
