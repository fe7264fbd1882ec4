import { describe, expect, it } from 'vitest';
import { pollDelay, pollUntil } from '../../../main/core/provider/calls/poll';
import { defaultBudgets } from '../../../main/core/provider/rules/budgets';
import { isProviderError } from '../../../main/core/provider/rules/errors';

describe('pollDelay', () => {
  it('polls about four times a second while young and once a second after five seconds', () => {
    expect(1000 / pollDelay(0, defaultBudgets)).toBeLessThanOrEqual(4);
    expect(1000 / pollDelay(4_999, defaultBudgets)).toBeLessThanOrEqual(4);
    expect(pollDelay(5_000, defaultBudgets)).toBeGreaterThanOrEqual(1_000);
    expect(pollDelay(600_000, defaultBudgets)).toBeGreaterThanOrEqual(1_000);
  });
});

describe('pollUntil', () => {
  const schedule = { youngPollMs: 10, youngForMs: 50, oldPollMs: 40 };

  it('returns the first defined answer', async () => {
    let n = 0;
    await expect(pollUntil({ schedule, budgetMs: 1000, what: 'x' }, async () => (++n === 3 ? 'done' : undefined))).resolves.toBe('done');
    expect(n).toBe(3);
  });

  it('is transient when the budget runs out, naming what it waited for', async () => {
    const err = await pollUntil({ schedule, budgetMs: 60, what: 'task UPID:x' }, async () => undefined).catch((e: unknown) => e);
    expect(isProviderError(err, 'transient')).toBe(true);
    expect((err as Error).message).toContain('task UPID:x');
  });

  it('returns within a few milliseconds of a cancel, even during a long pause', async () => {
    const controller = new AbortController();
    const slow = { youngPollMs: 60_000, youngForMs: 1, oldPollMs: 60_000 };
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    const err = await pollUntil({ schedule: slow, budgetMs: 600_000, what: 'x', signal: controller.signal }, async () => undefined).catch(
      (e: unknown) => e,
    );
    expect(isProviderError(err, 'transient')).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
