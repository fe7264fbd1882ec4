/**
 * Issue 24 §3 and the secret rules: a proxy password, the one the composed app's credentials area made and keeps
 * for a demo proxy (read back through the drawer's explicit reveal, so it is the real one), is in an export's text
 * only when the request asks for it after the warning was confirmed, and never in a log line, an
 * error, or any file of the data folder (settings, history, journal), whatever was exported.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultExportOptions, ExportFormat } from '../../../../shared/channels/exports';
import { demoCredentials, startDemoCluster } from '../../../../main/services/demo/demo-cluster';
import { createMemoryLogger } from '../../../../main/log/logger';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { composeApp, type ComposedApp } from '../../../support/compose-app';

let SENTINEL = '';
const ctx = () => ({ signal: new AbortController().signal, transport: 'test' });

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));

describe('a proxy password and the exports', () => {
  const logger = createMemoryLogger();
  const dataDir = mkdtempSync(join(tmpdir(), 'egress-export-sentinel-'));
  let app: ComposedApp;
  let proxies: { clusterId: string; vmid: number }[];
  beforeAll(async () => {
    app = composeApp({
      mode: 'browser',
      version: '0.0.0-test',
      runtime: nodeRuntime(),
      logger,
      dataDir,
      demo: 'off',
      monitoring: { inventory: { visibleIntervalMs: 200 } },
    });
    app.profiles.startDemo(async () => {
      const cluster = await startDemoCluster(logger, 0.02);
      await demoCredentials(cluster, app.credentials);
      return cluster;
    });
    for (let i = 0; i < 300; i++) {
      const answer = await app.router.dispatch('inventory.snapshot', {}, ctx());
      const vms = answer.ok
        ? (answer.value as { clusters: { clusterId: string; vms: { vmid: number; address?: string; owner: string }[] }[] }).clusters
        : [];
      proxies = vms.flatMap((c) =>
        c.vms.filter((v) => v.address && v.owner === 'marked').map((v) => ({ clusterId: c.clusterId, vmid: v.vmid })),
      );
      if (proxies.length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(proxies.length).toBeGreaterThanOrEqual(2);
    const revealed = await app.router.dispatch('proxies.credentials', proxies[0]!, ctx());
    if (!revealed.ok) throw new Error(`no credentials for the demo proxy: ${revealed.error.message}`);
    const { password } = revealed.value as { username: string; password: string };
    expect(password.length).toBeGreaterThanOrEqual(22); // at least 128 bits, base64url
    SENTINEL = password;
  });
  afterAll(async () => {
    await app.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const exportAs = (format: ExportFormat, includeCredentials: boolean) =>
    app.router.dispatch(
      'proxies.export',
      { scope: { kind: 'selection', proxies: proxies.slice(0, 2) }, format, options: { ...defaultExportOptions, includeCredentials } },
      ctx(),
    );

  it('is in no export until asked for after the warning', async () => {
    for (const format of ExportFormat.options) {
      const answer = await exportAs(format, false);
      expect(answer.ok).toBe(true);
      expect(JSON.stringify(answer)).not.toContain(SENTINEL);
    }
    const refused = await exportAs('json', true);
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toContain(SENTINEL);
  });

  it('is in the text when asked for after the warning, and still in no log line or file', async () => {
    await app.router.dispatch('settings.set', { settings: { exportCredentialsAcknowledged: true } }, ctx());
    for (const format of ExportFormat.options) {
      const answer = await exportAs(format, true);
      expect(answer.ok).toBe(true);
      if (format !== 'pac') expect(JSON.stringify(answer)).toContain(SENTINEL);
    }
    app.history.flush();
    expect(logger.lines.filter((l) => l.includes(SENTINEL))).toEqual([]);
    for (const file of filesUnder(dataDir)) expect(readFileSync(file).includes(SENTINEL), file).toBe(false);
  });
});
