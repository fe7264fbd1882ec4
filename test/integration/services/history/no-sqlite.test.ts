/**
 * A runtime without node:sqlite never crashes the app: the history is kept
 * in memory with the same rules, and its status says why.
 */
import { describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openHistoryDatabase } from '../../../../main/services/history/history-db';

vi.mock('../../../../main/services/history/sqlite-module', () => ({
  loadSqlite: () => {
    throw new Error('node:sqlite is not available in Node v0.0.0');
  },
}));

const NOW = Date.UTC(2026, 10, 30, 12);
const DAY = 86_400_000;

describe('history without node:sqlite', () => {
  it('keeps checks, node health and alerts in memory and says why', () => {
    const logger = createMemoryLogger();
    const store = openHistoryDatabase({ file: '/nowhere/history.sqlite', logger, now: () => NOW, retentionDays: 7 });
    expect(store.status()).toMatchObject({ path: ':memory:', sizeBytes: 0 });
    expect(store.status().degraded).toMatch(/not available .*node:sqlite is not available/);
    expect(logger.lines.some((l) => l.includes('"level":"warn"') && l.includes('kept in memory'))).toBe(true);

    store.recordCheck({ clusterId: 'home', vmid: 105, at: NOW - 8 * DAY, ok: true, origin: 'scheduled' });
    store.recordCheck({ clusterId: 'home', vmid: 105, at: NOW - 1000, ok: false, stage: 'connect', origin: 'manual' });
    store.recordNodeHealth({ clusterId: 'home', node: 'pve1', at: NOW, reason: 'ok' });
    expect(store.latestChecks('home').map((c) => c.at)).toEqual([NOW - 1000]);
    expect(store.nodeHealth('home', 'pve1', 0)).toHaveLength(1);

    const alert = {
      rule: 'node-unreachable' as const,
      clusterId: 'home',
      target: 'node:pve1',
      label: 'pve1',
      raisedAt: NOW - 30 * DAY,
      reason: 'r',
      hint: 'h',
    };
    expect(store.raiseAlert(alert).raised).toBe(true);
    expect(store.raiseAlert(alert).raised).toBe(false);
    expect(store.applyRetention(NOW)).toBe(1); // the old check; the old open alert stays
    expect(store.checks('home', 105, 0).map((c) => c.at)).toEqual([NOW - 1000]);
    expect(store.openAlerts()).toHaveLength(1);
    expect(store.resolveAlert('node-unreachable', 'home', 'node:pve1', NOW)?.resolvedAt).toBe(NOW);
    store.close();
  });
});
