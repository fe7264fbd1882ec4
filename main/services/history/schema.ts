/**
 * The history database's schema, versioned with PRAGMA user_version.
 *
 * Rows are kept small so a month of checks stays well under 50 MB: times are
 * integer epoch milliseconds, booleans and enums are small integers, a proxy
 * is one integer (proxies table: cluster id + vmid), and the egress address,
 * repeated on nearly every check, is one integer into the addresses table.
 * Checks are a WITHOUT ROWID table keyed (proxy, at, seq): the table is its
 * own (cluster, vmid, at) index, so a 7-day read of one proxy is one range
 * scan and no second copy of the key is stored (sqlite.org/withoutrowid.html).
 * `seq` is 0 unless a proxy has two checks in the same millisecond.
 *
 * v1 (the first release of the history): checks without `stage` and
 *     `origin`; node health in a plain table with no index, so a node's
 *     history was a full scan.
 * v2: checks gain `stage` (where a failed check stopped) and `origin`
 *     (scheduled or manual; v1 rows were all scheduled, the default 0), and
 *     node health is rebuilt keyed (node, at, seq) like checks.
 *
 * v3 (issue 24, targets): each target a check fetched through the proxy,
 *     in target_checks keyed (proxy, at, target, seq), the URL one integer
 *     into target_urls; older databases gain the two empty tables.
 *
 * A migration runs in one transaction with its user_version bump: a crash
 * mid-migration leaves the previous version intact.
 */
import type { DatabaseSync } from './sqlite-module';

export const SCHEMA_VERSION = 3;

/** The v1 schema, exactly as it shipped; kept so tests can write a v1 file. */
export const SCHEMA_V1 = `
  CREATE TABLE proxies (
    id INTEGER PRIMARY KEY,
    cluster TEXT NOT NULL,
    vmid INTEGER NOT NULL,
    UNIQUE (cluster, vmid)
  );
  CREATE TABLE addresses (
    id INTEGER PRIMARY KEY,
    address TEXT NOT NULL UNIQUE
  );
  CREATE TABLE checks (
    proxy INTEGER NOT NULL,
    at INTEGER NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0,
    ok INTEGER NOT NULL,
    latency_ms INTEGER,
    http_status INTEGER,
    egress INTEGER,
    problem TEXT,
    PRIMARY KEY (proxy, at, seq)
  ) WITHOUT ROWID;
  CREATE TABLE nodes (
    id INTEGER PRIMARY KEY,
    cluster TEXT NOT NULL,
    node TEXT NOT NULL,
    UNIQUE (cluster, node)
  );
  CREATE TABLE node_health (
    node INTEGER NOT NULL,
    at INTEGER NOT NULL,
    reason TEXT NOT NULL,
    latency_ms INTEGER
  );
  CREATE TABLE alerts (
    id INTEGER PRIMARY KEY,
    rule TEXT NOT NULL,
    cluster TEXT NOT NULL,
    target TEXT NOT NULL,
    label TEXT NOT NULL,
    raised_at INTEGER NOT NULL,
    resolved_at INTEGER,
    acknowledged_at INTEGER,
    reason TEXT NOT NULL,
    hint TEXT NOT NULL
  );
  CREATE UNIQUE INDEX alerts_open ON alerts (rule, cluster, target) WHERE resolved_at IS NULL;
`;

const V1_TO_V2 = `
  ALTER TABLE checks ADD COLUMN stage INTEGER;
  ALTER TABLE checks ADD COLUMN origin INTEGER NOT NULL DEFAULT 0;
  CREATE TABLE node_health_v2 (
    node INTEGER NOT NULL,
    at INTEGER NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0,
    reason TEXT NOT NULL,
    latency_ms INTEGER,
    PRIMARY KEY (node, at, seq)
  ) WITHOUT ROWID;
  -- v1 could hold two rows of a node in one millisecond: number them.
  INSERT INTO node_health_v2 (node, at, seq, reason, latency_ms)
    SELECT node, at, row_number() OVER (PARTITION BY node, at ORDER BY rowid) - 1, reason, latency_ms FROM node_health;
  DROP TABLE node_health;
  ALTER TABLE node_health_v2 RENAME TO node_health;
`;

const V2_TO_V3 = `
  CREATE TABLE target_urls (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE
  );
  CREATE TABLE target_checks (
    proxy INTEGER NOT NULL,
    at INTEGER NOT NULL,
    target INTEGER NOT NULL,
    seq INTEGER NOT NULL DEFAULT 0,
    ok INTEGER NOT NULL,
    http_status INTEGER,
    first_byte_ms INTEGER,
    total_ms INTEGER,
    stage INTEGER,
    problem TEXT,
    origin INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (proxy, at, target, seq)
  ) WITHOUT ROWID;
`;

/** Each step takes the database from version i to i + 1 (index 0: empty -> v1). */
const MIGRATIONS: readonly string[] = [SCHEMA_V1, V1_TO_V2, V2_TO_V3];

export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/** Brings the database to SCHEMA_VERSION; returns the version it found. Throws if a step fails (rolled back). */
export function migrate(db: DatabaseSync, target = SCHEMA_VERSION): number {
  const found = schemaVersion(db);
  for (let version = found; version < target; version++) {
    const step = MIGRATIONS[version];
    if (step === undefined) throw new Error(`no migration from schema v${version}`);
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(step);
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
  return found;
}
