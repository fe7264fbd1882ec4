/**
 * Issue 24, targets in the history: a database of the release before
 * (schema v2) opens with its checks kept and gains the target table; each
 * target fetch is kept with its status and timings, read back per proxy
 * (across a restart and while still queued), and cut by the retention like
 * the checks. The in-memory store a broken folder falls back to does the same.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openHistoryDatabase, type HistoryDatabase } from '../../../../main/services/history/history-db';
import { memoryHistoryStore } from '../../../../main/services/history/memory-store';
import { migrate } from '../../../../main/services/history/schema';
import { loadSqlite } from '../../../../main/services/history/sqlite-module';
import type { TargetCheckRecord } from '../../../../main/services/history/types';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2, 12, 0, 0);
const opened: HistoryDatabase[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

const open = (file: string) => {
  const store = openHistoryDatabase({ file, logger: createMemoryLogger(), now: () => NOW, flushIntervalMs: 60_000 });
  opened.push(store);
  return store;
};

const fetched = (url: string, at: number, extra: Partial<TargetCheckRecord> = {}): TargetCheckRecord => ({
  clusterId: 'home',
  vmid: 105,
  url,
  at,
  ok: true,
  httpStatus: 200,
  firstByteMs: 12,
  totalMs: 15,
  origin: 'scheduled',
  ...extra,
});

const refused = (at: number) =>
  fetched('http://127.0.0.1:9/', at, {
    ok: false,
    httpStatus: undefined,
    firstByteMs: undefined,
    totalMs: undefined,
    stage: 'request',
    problem: 'The proxy works, but it could not reach 127.0.0.1:9.',
  });

describe('target fetches in the history database', () => {
  it('a v2 database opens with its checks, gains the target table, and keeps fetches across a restart', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'egress-history-')), 'history.sqlite');
    const { DatabaseSync } = loadSqlite();
    const v2 = new DatabaseSync(file);
    migrate(v2, 2);
    v2.exec(`
      INSERT INTO proxies (id, cluster, vmid) VALUES (1, 'home', 105);
      INSERT INTO checks (proxy, at, ok, latency_ms, http_status, problem, stage, origin) VALUES (1, ${NOW - 1000}, 1, 30, 200, NULL, NULL, 1);
    `);
    v2.close();

    const store = open(file);
    expect(store.status().schemaVersion).toBe(3);
    expect(store.checks('home', 105, 0)).toEqual([
      { clusterId: 'home', vmid: 105, at: NOW - 1000, ok: true, latencyMs: 30, httpStatus: 200, origin: 'manual' },
    ]);
    store.recordTargetCheck({ ...fetched('https://a.example/', NOW), firstByteMs: 12.4, totalMs: 15.6 });
    store.recordTargetCheck(refused(NOW));
    // Read while still queued (the flush interval is a minute), then from the file after a restart.
    const expected = [fetched('https://a.example/', NOW, { totalMs: 16 }), refused(NOW)];
    expect(store.targetChecks('home', 105, 0)).toEqual(expected);
    store.close();
    const again = open(file);
    expect(again.targetChecks('home', 105, 0)).toEqual(expected);
    expect(again.targetChecks('home', 106, 0)).toEqual([]);
    const db = new DatabaseSync(file);
    expect(db.prepare('SELECT count(*) AS n FROM target_urls').get()).toEqual({ n: 2 });
    db.close();
  });

  it('the retention cuts old fetches like old checks', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'egress-history-')), 'history.sqlite');
    const store = open(file);
    store.recordTargetCheck(fetched('https://a.example/', NOW - 40 * DAY));
    store.recordTargetCheck(fetched('https://a.example/', NOW - DAY));
    expect(store.applyRetention(NOW)).toBe(1);
    expect(store.targetChecks('home', 105, 0).map((t) => t.at)).toEqual([NOW - DAY]);
  });

  it('the in-memory fallback keeps and cuts them too', () => {
    const store = memoryHistoryStore('test', { now: () => NOW });
    store.recordTargetCheck(fetched('https://a.example/', NOW - 40 * DAY));
    store.recordTargetCheck(refused(NOW));
    expect(store.applyRetention(NOW)).toBe(1);
    expect(store.targetChecks('home', 105, 0)).toEqual([refused(NOW)]);
  });
});
