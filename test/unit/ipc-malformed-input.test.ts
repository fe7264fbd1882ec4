/**
 * Every channel, fed malformed inputs: wrong types, missing fields, extra
 * fields, huge strings, non-objects. Each must come back as invalid-input
 * naming a field, be logged, and leave the router serving.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { channelNames, channels } from '../../shared/contract';
import { composeApp } from '../support/compose-app';
import { nodeRuntime } from '../../main/app/runtime-info';
import { createMemoryLogger } from '../../main/log/logger';

const ctx = { signal: new AbortController().signal, transport: 'test' };

function build() {
  const logger = createMemoryLogger('debug');
  const app = composeApp({ mode: 'browser', version: '0.0.0', runtime: nodeRuntime(), logger, statusIntervalMs: 60_000 });
  return { app, logger };
}

/** Malformed variants derived from the channel's own schema, so new channels are covered automatically. */
function malformedInputs(schema: z.ZodType): unknown[] {
  const out: unknown[] = [null, 42, 'text', [], true, { __proto__: null, extra: 1 }, { unexpectedField: 'x' }];
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    for (const key of Object.keys(shape)) {
      out.push({ [key]: 12345 }, { [key]: { nested: true } }, { [key]: 'x'.repeat(1_000_000) }, { [key]: null });
    }
    const required = Object.entries(shape).filter(([, s]) => !s.safeParse(undefined).success);
    if (required.length > 0) out.push({});
  }
  return out;
}

describe('malformed IPC input', () => {
  it.each(channelNames)('%s answers invalid-input for every malformed payload and keeps serving', async (channel) => {
    const { app, logger } = build();
    const inputs = malformedInputs(channels[channel].input).filter((i) => !channels[channel].input.safeParse(i).success);
    expect(inputs.length).toBeGreaterThan(5);
    for (const input of inputs) {
      const result = await app.router.dispatch(channel, input, ctx);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.kind).toBe('invalid-input');
        expect(result.error.field).toBeTruthy();
        expect(result.error.message.length).toBeLessThan(400);
      }
    }
    expect(logger.lines.filter((l) => l.includes('invalid input')).length).toBe(inputs.length);
    expect((await app.router.dispatch('app.echo', { text: 'still here' }, ctx)).ok).toBe(true);
    await app.dispose();
  });

  it('refuses undeclared channel names, including prototype keys', async () => {
    const { app } = build();
    for (const name of ['nope', '__proto__', 'constructor', 'toString', '', 7, null]) {
      const result = await app.router.dispatch(name, {}, ctx);
      expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'channel' } });
    }
    await app.dispose();
  });

  it('never throws, whatever arrives (property test)', async () => {
    const { app } = build();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...channelNames), fc.anything(), async (channel, input) => {
        const result = await app.router.dispatch(channel, input, ctx);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 2000 },
    );
    await app.dispose();
  });
});
