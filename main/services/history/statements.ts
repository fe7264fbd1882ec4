/**
 * Every SQL statement of the history, prepared once per database (the file,
 * or the in-memory session before it moves into the file).
 */
import type { DatabaseSync, StatementSync } from './sqlite-module';

export type HistoryStatements = ReturnType<typeof prepareStatements>;

export function prepareStatements(db: DatabaseSync) {
  return {
    proxyId: db.prepare('SELECT id FROM proxies WHERE cluster = ? AND vmid = ?'),
    addProxy: db.prepare('INSERT INTO proxies (cluster, vmid) VALUES (?, ?)'),
    addressId: db.prepare('SELECT id FROM addresses WHERE address = ?'),
    addAddress: db.prepare('INSERT INTO addresses (address) VALUES (?)'),
    nodeId: db.prepare('SELECT id FROM nodes WHERE cluster = ? AND node = ?'),
    addNode: db.prepare('INSERT INTO nodes (cluster, node) VALUES (?, ?)'),
    // seq numbers a second check of a proxy in the same millisecond (the key is proxy, at, seq).
    insertCheck: db.prepare(
      `INSERT INTO checks (proxy, at, seq, ok, latency_ms, http_status, egress, problem, stage, origin)
       VALUES (?1, ?2, (SELECT count(*) FROM checks WHERE proxy = ?1 AND at = ?2), ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
    ),
    targetId: db.prepare('SELECT id FROM target_urls WHERE url = ?'),
    addTarget: db.prepare('INSERT INTO target_urls (url) VALUES (?)'),
    insertTargetCheck: db.prepare(
      `INSERT INTO target_checks (proxy, at, target, seq, ok, http_status, first_byte_ms, total_ms, stage, problem, origin)
       VALUES (?1, ?2, ?3, (SELECT count(*) FROM target_checks WHERE proxy = ?1 AND at = ?2 AND target = ?3), ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    ),
    targetChecks: db.prepare(
      `SELECT p.vmid, t.url, c.at, c.ok, c.http_status, c.first_byte_ms, c.total_ms, c.stage, c.problem, c.origin
       FROM target_checks c JOIN proxies p ON p.id = c.proxy JOIN target_urls t ON t.id = c.target
       WHERE c.proxy = ? AND c.at BETWEEN ? AND ? ORDER BY c.at, c.target, c.seq`,
    ),
    allTargetChecks: db.prepare(
      `SELECT p.cluster, p.vmid, t.url, c.at, c.ok, c.http_status, c.first_byte_ms, c.total_ms, c.stage, c.problem, c.origin
       FROM target_checks c JOIN proxies p ON p.id = c.proxy JOIN target_urls t ON t.id = c.target ORDER BY c.at, c.target, c.seq`,
    ),
    deleteTargetChecks: db.prepare('DELETE FROM target_checks WHERE proxy = ? AND at < ?'),
    insertNodeHealth: db.prepare(
      `INSERT INTO node_health (node, at, seq, reason, latency_ms)
       VALUES (?1, ?2, (SELECT count(*) FROM node_health WHERE node = ?1 AND at = ?2), ?3, ?4)`,
    ),
    checks: db.prepare(
      `SELECT p.vmid, c.at, c.ok, c.latency_ms, c.http_status, a.address, c.problem, c.stage, c.origin
       FROM checks c JOIN proxies p ON p.id = c.proxy LEFT JOIN addresses a ON a.id = c.egress
       WHERE c.proxy = ? AND c.at BETWEEN ? AND ? ORDER BY c.at, c.seq`,
    ),
    latestChecks: db.prepare(
      `SELECT p.vmid, c.at, c.ok, c.latency_ms, c.http_status, a.address, c.problem, c.stage, c.origin
       FROM proxies p
       JOIN checks c ON c.proxy = p.id AND c.at = (SELECT max(at) FROM checks WHERE proxy = p.id)
       LEFT JOIN addresses a ON a.id = c.egress
       WHERE p.cluster = ? ORDER BY p.vmid, c.seq`,
    ),
    nodeHealth: db.prepare('SELECT at, reason, latency_ms FROM node_health WHERE node = ? AND at BETWEEN ? AND ? ORDER BY at, seq'),
    openAlert: db.prepare('SELECT * FROM alerts WHERE rule = ? AND cluster = ? AND target = ? AND resolved_at IS NULL'),
    alertById: db.prepare('SELECT * FROM alerts WHERE id = ?'),
    // The next id above both the highest one and the floor (0 in a file: what SQLite would pick itself).
    insertAlert: db.prepare(
      `INSERT INTO alerts (id, rule, cluster, target, label, raised_at, reason, hint)
       VALUES (max(coalesce((SELECT max(id) FROM alerts), 0), ?8) + 1, ?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    ),
    carryAlert: db.prepare(
      `INSERT INTO alerts (id, rule, cluster, target, label, raised_at, resolved_at, acknowledged_at, reason, hint)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    nextAlertId: db.prepare('SELECT coalesce(max(id), 0) + 1 AS id FROM alerts'),
    allChecks: db.prepare(
      `SELECT p.cluster, p.vmid, c.at, c.ok, c.latency_ms, c.http_status, a.address, c.problem, c.stage, c.origin
       FROM checks c JOIN proxies p ON p.id = c.proxy LEFT JOIN addresses a ON a.id = c.egress ORDER BY c.at, c.seq`,
    ),
    allNodeHealth: db.prepare(
      'SELECT n.cluster, n.node, h.at, h.reason, h.latency_ms FROM node_health h JOIN nodes n ON n.id = h.node ORDER BY h.at, h.seq',
    ),
    allAlerts: db.prepare('SELECT * FROM alerts ORDER BY raised_at, id'),
    resolveAlert: db.prepare('UPDATE alerts SET resolved_at = ? WHERE id = ?'),
    acknowledgeAlert: db.prepare('UPDATE alerts SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL'),
    openAlerts: db.prepare('SELECT * FROM alerts WHERE resolved_at IS NULL ORDER BY raised_at DESC, id DESC'),
    recentAlerts: db.prepare(
      `SELECT * FROM alerts WHERE raised_at >= ?1 OR resolved_at >= ?1
       ORDER BY max(raised_at, coalesce(resolved_at, 0)) DESC, id DESC LIMIT ?2`,
    ),
    allProxies: db.prepare('SELECT id FROM proxies'),
    allNodes: db.prepare('SELECT id FROM nodes'),
    deleteChecks: db.prepare('DELETE FROM checks WHERE proxy = ? AND at < ?'),
    deleteNodeHealth: db.prepare('DELETE FROM node_health WHERE node = ? AND at < ?'),
    deleteResolvedAlerts: db.prepare('DELETE FROM alerts WHERE resolved_at IS NOT NULL AND resolved_at < ?'),
  } satisfies Record<string, StatementSync>;
}
