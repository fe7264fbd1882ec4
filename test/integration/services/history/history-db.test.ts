/**
 * The history database on real files: batching, reads of unflushed records,
 * retention, the v1 -> v2 migration, corrupt files moved aside, an unusable
 * folder running in memory, and a write refused at runtime kept for retry.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openHistoryDatabase, type HistoryDatabase, type HistoryDatabaseOptions } from '../../../../main/services/history/history-db';
import { SCHEMA_V1 } from '../../../../main/services/history/schema';
import { loadSqlite } from '../../../../main/services/history/sqlite-module';
import type { CheckRecord } from '../../../../main/services/history/types';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 30, 12, 0, 0);
const opened: HistoryDatabase[] = [];

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

async function tempFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'egress-history-')), 'history.sqlite');
}

function open(file: string, options: Partial<HistoryDatabaseOptions> = {}) {
  const logger = createMemoryLogger();
  const store = openHistoryDatabase({ file, logger, now: () => NOW, ...options });
  opened.push(store);
  return { store, logger };
}

function check(vmid: number, at: number, extra: Partial<CheckRecord> = {}): CheckRecord {
  return {
    clusterId: 'home',
    vmid,
    at,
    ok: true,
    latencyMs: 40,
    httpStatus: 200,
    egressAddress: '198.51.100.7',
    origin: 'scheduled',
    ...extra,
  };
}

/** Commit frames in a WAL file (sqlite.org/fileformat.html#the_write_ahead_log): a frame whose header's "db size after commit" is not 0. */
function walCommits(file: string): number {
  const wal = readFileSync(`${file}-wal`);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  let commits = 0;
  for (let offset = 32; offset + 24 + pageSize <= wal.length; offset += 24 + pageSize) {
    if (wal.readUInt32BE(offset + 4) !== 0) commits++;
  }
  return commits;
}

describe('history database: batches and reads', () => {
  it('writes N records in one transaction when the batch fills', async () => {
    const file = await tempFile();
    const { store } = open(file, { batchSize: 100, flushIntervalMs: 3_600_000 });
    const before = walCommits(file);
    for (let i = 0; i < 99; i++) store.recordCheck(check(100 + (i % 10), NOW - i * 1000));
    expect(walCommits(file)).toBe(before); // 99 queued, nothing written yet
    store.recordCheck(check(200, NOW));
    expect(walCommits(file)).toBe(before + 1);
    expect(store.checks('home', 200, 0)).toHaveLength(1);
  });

  it('reads see records that are not written yet, and flush or close writes them', async () => {
    const file = await tempFile();
    const { store } = open(file, { batchSize: 1000, flushIntervalMs: 3_600_000 });
    store.recordCheck(
      check(105, NOW - 2000, {
        ok: false,
        stage: 'connect',
        problem: 'connection refused',
        latencyMs: undefined,
        httpStatus: undefined,
        egressAddress: undefined,
      }),
    );
    store.recordCheck(check(105, NOW - 1000, { origin: 'manual', latencyMs: 41.6 }));
    store.recordNodeHealth({ clusterId: 'home', node: 'pve1', at: NOW - 500, reason: 'ok', latencyMs: 12 });
    expect(store.checks('home', 105, NOW - DAY)).toEqual([
      { clusterId: 'home', vmid: 105, at: NOW - 2000, ok: false, stage: 'connect', problem: 'connection refused', origin: 'scheduled' },
      { ...check(105, NOW - 1000), origin: 'manual', latencyMs: 42 },
    ]);
    expect(store.latestChecks('home').map((c) => [c.vmid, c.at])).toEqual([[105, NOW - 1000]]);
    expect(store.nodeHealth('home', 'pve1', 0)).toEqual([{ clusterId: 'home', node: 'pve1', at: NOW - 500, reason: 'ok', latencyMs: 12 }]);
    store.recordCheck(check(106, NOW));
    store.close();
    const reopened = open(file).store;
    expect(reopened.checks('home', 106, 0)).toHaveLength(1);
    expect(reopened.checks('home', 105, 0)).toHaveLength(2);
  });

  it('a 7-day read of one proxy is an index range scan', async () => {
    const { DatabaseSync } = loadSqlite();
    const file = await tempFile();
    open(file).store.close();
    const db = new DatabaseSync(file);
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT at, ok, latency_ms FROM checks c WHERE c.proxy = ? AND c.at BETWEEN ? AND ? ORDER BY c.at, c.seq')
      .all(1, 0, 1) as Array<{ detail: string }>;
    db.close();
    // One range on the key, no sort step, no scan.
    expect(plan.map((p) => p.detail)).toEqual(['SEARCH c USING PRIMARY KEY (proxy=? AND at>? AND at<?)']);
  });

  it('keeps two checks of one proxy made in the same millisecond, in the order recorded', async () => {
    const { store } = open(await tempFile());
    store.recordCheck(check(105, NOW, { ok: false, origin: 'scheduled' }));
    store.recordCheck(check(105, NOW, { ok: true, origin: 'manual' }));
    expect(store.checks('home', 105, 0).map((c) => c.origin)).toEqual(['scheduled', 'manual']);
    expect(store.latestChecks('home').map((c) => c.origin)).toEqual(['manual']);
  });
});

describe('history database: alerts', () => {
  it('raises once per rule and target, resolves once, acknowledges', async () => {
    const { store } = open(await tempFile());
    const alert = {
      rule: 'egress-failing' as const,
      clusterId: 'home',
      target: 'vm:105',
      label: 'proxy a (105)',
      raisedAt: NOW,
      reason: 'two checks failed',
      hint: 'open the proxy',
    };
    const first = store.raiseAlert(alert);
    expect(first.raised).toBe(true);
    expect(store.raiseAlert({ ...alert, raisedAt: NOW + 1 }).raised).toBe(false);
    expect(store.acknowledgeAlert(first.alert.id, NOW + 2)?.acknowledgedAt).toBe(NOW + 2);
    expect(store.resolveAlert('egress-failing', 'home', 'vm:105', NOW + 3)?.resolvedAt).toBe(NOW + 3);
    expect(store.resolveAlert('egress-failing', 'home', 'vm:105', NOW + 4)).toBeUndefined();
    expect(store.openAlerts()).toEqual([]);
    expect(store.raiseAlert({ ...alert, raisedAt: NOW + 5 }).raised).toBe(true);
    expect(store.recentAlerts(0, 10).map((a) => [a.raisedAt, a.resolvedAt])).toEqual([
      [NOW + 5, undefined],
      [NOW, NOW + 3],
    ]);
  });
});

describe('history database: retention', () => {
  it('deletes exactly what is older than the cut, and never an open alert', async () => {
    const { store } = open(await tempFile(), { retentionDays: 7 });
    const cut = NOW - 7 * DAY;
    for (const at of [cut - DAY, cut - 1, cut, cut + 1, NOW]) {
      store.recordCheck(check(105, at));
      store.recordCheck(check(106, at));
      store.recordNodeHealth({ clusterId: 'home', node: 'pve1', at, reason: 'ok' });
    }
    const base = { clusterId: 'home', label: 'x', reason: 'r', hint: 'h' };
    store.raiseAlert({ ...base, rule: 'node-unreachable', target: 'node:pve1', raisedAt: cut - 30 * DAY }); // open and old: kept
    store.raiseAlert({ ...base, rule: 'egress-failing', target: 'vm:105', raisedAt: cut - 2 * DAY });
    store.resolveAlert('egress-failing', 'home', 'vm:105', cut - 1); // resolved before the cut: deleted
    store.raiseAlert({ ...base, rule: 'egress-failing', target: 'vm:106', raisedAt: cut - 2 * DAY });
    store.resolveAlert('egress-failing', 'home', 'vm:106', cut); // resolved at the cut: kept

    expect(store.applyRetention(NOW)).toBe(2 * 2 + 2 + 1);
    expect(store.checks('home', 105, 0).map((c) => c.at)).toEqual([cut, cut + 1, NOW]);
    expect(store.checks('home', 106, 0).map((c) => c.at)).toEqual([cut, cut + 1, NOW]);
    expect(store.nodeHealth('home', 'pve1', 0).map((h) => h.at)).toEqual([cut, cut + 1, NOW]);
    expect(store.openAlerts().map((a) => a.target)).toEqual(['node:pve1']);
    expect(
      store
        .recentAlerts(0, 10)
        .map((a) => a.target)
        .sort(),
    ).toEqual(['node:pve1', 'vm:106']);
    expect(store.applyRetention(NOW)).toBe(0);
  });

  it('runs at open and then every hour on its own', async () => {
    const file = await tempFile();
    let clock = NOW;
    const first = open(file, { now: () => clock }).store;
    first.recordCheck(check(105, NOW - 30 * DAY + HOUR / 2)); // leaves the window half an hour from now
    first.recordCheck(check(105, NOW - 29 * DAY)); // kept a day more
    first.close();
    clock = NOW + DAY / 2; // reopened half a day later: the first check is gone at open
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    try {
      const store = open(file, { now: () => clock }).store;
      expect(store.checks('home', 105, 0).map((c) => c.at)).toEqual([NOW - 29 * DAY]);
      clock = NOW + DAY + HOUR; // the second one is now older than 30 days: the next hourly run deletes it
      vi.advanceTimersByTime(HOUR);
      expect(store.checks('home', 105, 0)).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a shorter retention set later applies at once', async () => {
    const { store } = open(await tempFile());
    store.recordCheck(check(105, NOW - 20 * DAY));
    store.recordCheck(check(105, NOW - DAY));
    store.flush();
    store.setRetentionDays(10);
    expect(store.checks('home', 105, 0).map((c) => c.at)).toEqual([NOW - DAY]);
  });
});

describe('history database: schema', () => {
  it('opens a v1 file, migrates it to v2 and keeps its data', async () => {
    const { DatabaseSync } = loadSqlite();
    const file = await tempFile();
    const v1 = new DatabaseSync(file);
    v1.exec('PRAGMA journal_mode = WAL');
    v1.exec(SCHEMA_V1);
    v1.exec(`
      INSERT INTO proxies (id, cluster, vmid) VALUES (1, 'home', 105);
      INSERT INTO addresses (id, address) VALUES (1, '198.51.100.7');
      INSERT INTO checks (proxy, at, ok, latency_ms, http_status, egress, problem) VALUES (1, ${NOW - DAY}, 1, 35, 200, 1, NULL);
      INSERT INTO checks (proxy, at, ok, latency_ms, http_status, egress, problem) VALUES (1, ${NOW - 1000}, 0, NULL, NULL, NULL, 'timed out');
      INSERT INTO nodes (id, cluster, node) VALUES (1, 'home', 'pve1');
      INSERT INTO node_health (node, at, reason, latency_ms) VALUES (1, ${NOW - 2000}, 'unreachable', NULL);
      INSERT INTO node_health (node, at, reason, latency_ms) VALUES (1, ${NOW - 2000}, 'ok', 9);
      INSERT INTO alerts (rule, cluster, target, label, raised_at, reason, hint) VALUES ('node-unreachable', 'home', 'node:pve1', 'node pve1', ${NOW - 2000}, 'no answer', 'check the node');
      PRAGMA user_version = 1;
    `);
    v1.close();

    const { store } = open(file);
    expect(store.status()).toMatchObject({ schemaVersion: 3, path: file });
    expect(store.status().movedAside).toBeUndefined();
    expect(store.checks('home', 105, 0)).toEqual([
      {
        clusterId: 'home',
        vmid: 105,
        at: NOW - DAY,
        ok: true,
        latencyMs: 35,
        httpStatus: 200,
        egressAddress: '198.51.100.7',
        origin: 'scheduled',
      },
      { clusterId: 'home', vmid: 105, at: NOW - 1000, ok: false, problem: 'timed out', origin: 'scheduled' },
    ]);
    expect(store.nodeHealth('home', 'pve1', 0)).toEqual([
      { clusterId: 'home', node: 'pve1', at: NOW - 2000, reason: 'unreachable' },
      { clusterId: 'home', node: 'pve1', at: NOW - 2000, reason: 'ok', latencyMs: 9 },
    ]);
    expect(store.openAlerts().map((a) => a.target)).toEqual(['node:pve1']);
    // The v2 columns work on the migrated file.
    store.recordCheck(check(105, NOW, { ok: false, stage: 'handshake', origin: 'manual' }));
    expect(store.checks('home', 105, NOW)).toEqual([check(105, NOW, { ok: false, stage: 'handshake', origin: 'manual' })]);
    store.close();
    const db = new DatabaseSync(file);
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 3 });
    db.close();
  });
});

describe('history database: a file it cannot use', () => {
  function asideFiles(file: string): string[] {
    const dir = join(file, '..');
    return readdirSync(dir).filter((name) => name.startsWith('history.sqlite.corrupt-'));
  }

  async function realDatabase(): Promise<string> {
    const file = await tempFile();
    const { store } = open(file, { batchSize: 500 });
    for (let i = 0; i < 3000; i++) store.recordCheck(check(100 + (i % 20), NOW - i * 60_000, { egressAddress: `198.51.100.${i % 200}` }));
    store.close();
    return file;
  }

  const cases: Array<[string, () => Promise<string>, RegExp]> = [
    [
      'random bytes',
      async () => {
        const file = await tempFile();
        writeFileSync(file, randomBytes(64 * 1024));
        return file;
      },
      /not a database/,
    ],
    [
      'a truncated real database',
      async () => {
        const file = await realDatabase();
        truncateSync(file, Math.floor(statSync(file).size / 2));
        return file;
      },
      /integrity|malformed|corrupt/i,
    ],
    [
      // Readable, but its header disagrees with its pages: only the integrity check sees it.
      'a database that fails quick_check',
      async () => {
        const file = await realDatabase();
        const fd = openSync(file, 'r+');
        const freelistCount = Buffer.alloc(4);
        freelistCount.writeUInt32BE(7); // sqlite.org/fileformat.html: header bytes 36-39, the freelist page count
        writeSync(fd, freelistCount, 0, 4, 36);
        closeSync(fd);
        return file;
      },
      /failed its integrity check \(.*Freelist: size is 0 but should be 7/s,
    ],
    [
      'a database from a newer version (user_version 99)',
      async () => {
        const file = await realDatabase();
        const { DatabaseSync } = loadSqlite();
        const db = new DatabaseSync(file);
        db.exec('PRAGMA user_version = 99');
        db.close();
        return file;
      },
      /newer Egress Desk \(schema v99/,
    ],
  ];

  for (const [name, make, reason] of cases) {
    it(`moves ${name} aside, reports it and starts fresh`, async () => {
      const file = await make();
      const original = readFileSync(file);
      const { store, logger } = open(file);
      const status = store.status();
      expect(status.degraded).toBeUndefined();
      expect(status.movedAside?.reason).toMatch(reason);
      expect(status.movedAside?.path).toMatch(/history\.sqlite\.corrupt-2026-11-30T12-00-00-000Z$/);
      expect(readFileSync(status.movedAside!.path).equals(original)).toBe(true);
      expect(asideFiles(file)).toContain('history.sqlite.corrupt-2026-11-30T12-00-00-000Z');
      expect(logger.lines.some((l) => l.includes('"level":"warn"') && l.includes('moved aside'))).toBe(true);
      // The fresh file works.
      store.recordCheck(check(105, NOW));
      expect(store.checks('home', 105, 0)).toHaveLength(1);
      expect(store.checks('home', 100, 0)).toHaveLength(0);
    });
  }

  it('runs in memory and says why when the folder cannot hold a database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'egress-history-'));
    writeFileSync(join(dir, 'not-a-folder'), 'x');
    const file = join(dir, 'not-a-folder', 'history.sqlite');
    const { store, logger } = open(file);
    expect(store.status()).toMatchObject({ path: ':memory:', sizeBytes: 0 });
    expect(store.status().degraded).toMatch(/could not be created/);
    expect(logger.lines.some((l) => l.includes('kept in memory'))).toBe(true);
    store.recordCheck(check(105, NOW));
    expect(store.checks('home', 105, 0)).toHaveLength(1);
  });

  it('leaves a healthy file alone when another process holds a lock at open', async () => {
    const file = await realDatabase();
    const { DatabaseSync } = loadSqlite();
    const holder = new DatabaseSync(file);
    holder.exec('PRAGMA locking_mode = EXCLUSIVE');
    holder.exec('BEGIN EXCLUSIVE');
    const { store } = open(file);
    expect(store.status().movedAside).toBeUndefined();
    expect(store.status().degraded).toMatch(/could not be opened/);
    holder.exec('ROLLBACK');
    holder.close();
    expect(asideFiles(file)).toEqual([]);
    expect(existsSync(file)).toBe(true);
  });
});

describe('history database: a write refused at runtime', () => {
  it('is logged once, never thrown, kept, and written when the disk accepts it again', async () => {
    const file = await tempFile();
    const { store, logger } = open(file, { batchSize: 2, flushIntervalMs: 3_600_000 });
    const { DatabaseSync } = loadSqlite();
    const holder = new DatabaseSync(file);
    holder.exec('BEGIN IMMEDIATE'); // another writer holds the write lock: our commits get SQLITE_BUSY
    store.recordCheck(check(105, NOW - 3000));
    store.recordCheck(check(105, NOW - 2000)); // the batch is full: the write fails
    store.recordCheck(check(105, NOW - 1000));
    expect(() => store.flush()).not.toThrow();
    // Still readable from memory.
    expect(store.checks('home', 105, 0).map((c) => c.at)).toEqual([NOW - 3000, NOW - 2000, NOW - 1000]);
    const failures = logger.lines.filter((l) => l.includes('history database write failed'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/locked|busy/i);
    holder.exec('ROLLBACK');
    holder.close();
    store.flush();
    store.close();
    expect(
      open(file)
        .store.checks('home', 105, 0)
        .map((c) => c.at),
    ).toEqual([NOW - 3000, NOW - 2000, NOW - 1000]);
    expect(logger.lines.some((l) => l.includes('writes work again'))).toBe(true);
  });

  it('keeps at most maxPending records while writes fail, dropping the oldest', async () => {
    const file = await tempFile();
    const { store } = open(file, { batchSize: 2, maxPending: 4, flushIntervalMs: 3_600_000 });
    const { DatabaseSync } = loadSqlite();
    const holder = new DatabaseSync(file);
    holder.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < 7; i++) store.recordCheck(check(105, NOW + i));
    store.flush();
    holder.exec('ROLLBACK');
    holder.close();
    expect(store.checks('home', 105, 0).map((c) => c.at - NOW)).toEqual([3, 4, 5, 6]);
  });
});
