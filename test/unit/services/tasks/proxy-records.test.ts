/**
 * The app's record of each proxy (proxy-records.ts): what a later migrate
 * learns about a seed's instance-id survives a restart, a half-done seed swap
 * says so instead of guessing, a file that does not parse is set aside, and a
 * record that cannot be written refuses, classified, keeping what it knew.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../main/errors/app-error';
import { createLogger } from '../../../../main/log/logger';
import { PROXY_RECORDS_FILE, ProxyRecords } from '../../../../main/services/tasks/records/proxy-records';

const logger = createLogger({ sinks: [] });
const UID = '3f1e2d3c-4b5a-4697-8a8b-9c0d1e2f3a4b';
const open = (dir: string) => new ProxyRecords({ dir, logger });

describe('the proxy records', () => {
  it('tells a made-here proxy from an operator-made one, and the seed each carries, across a restart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'egress-records-'));
    const records = open(dir);
    expect(records.seed('c', UID)).toEqual({ state: 'unknown' });
    expect(records.ours('c', UID)).toBe(false);
    records.noteOrigins([{ clusterId: 'c', uid: UID, template: 't', machineType: 'small' }]);
    // Made here and never reconfigured: create's seed, whose instance-id is the name.
    expect(records.seed('c', UID)).toEqual({ state: 'known', instanceId: undefined });

    records.seedSwapBegins('c', UID, 'p-20261130120000');
    expect(open(dir).seed('c', UID)).toEqual({ state: 'pending', instanceId: 'p-20261130120000' });
    records.seedWritten('c', UID, 'p-20261130120000');
    const again = open(dir);
    expect(again.seed('c', UID)).toEqual({ state: 'known', instanceId: 'p-20261130120000' });
    expect(again.origin('c', UID)).toEqual({ template: 't', machineType: 'small' });
    // Another cluster's VM with the same UID is another proxy.
    expect(again.seed('other', UID)).toEqual({ state: 'unknown' });

    // An operator-made proxy the app reconfigured: its seed is known, and it stays the operator's.
    const op = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
    again.seedWritten('c', op, 'q-20261130120000');
    expect(again.seed('c', op)).toEqual({ state: 'known', instanceId: 'q-20261130120000' });
    expect(again.ours('c', op)).toBe(false);
  });

  it('sets an unreadable file aside and starts empty', () => {
    const dir = mkdtempSync(join(tmpdir(), 'egress-records-'));
    writeFileSync(join(dir, PROXY_RECORDS_FILE), '{"version":1,"proxies":{"c/x":{"seedInstanceId":');
    const records = open(dir);
    expect(records.seed('c', 'x')).toEqual({ state: 'unknown' });
    expect(readdirSync(dir).filter((f) => f.startsWith('proxy-records.corrupt-'))).toHaveLength(1);
    records.seedWritten('c', 'x', 'x-1');
    expect(JSON.parse(readFileSync(join(dir, PROXY_RECORDS_FILE), 'utf8')).proxies['c/x']).toEqual({ seedInstanceId: 'x-1' });
  });

  it('a seed record that cannot be written is refused, classified, and the record keeps what it knew', () => {
    const base = mkdtempSync(join(tmpdir(), 'egress-records-'));
    writeFileSync(join(base, 'a-file'), '');
    // A folder under a file: every write fails (ENOTDIR), as a read-only or vanished data folder would.
    const records = open(join(base, 'a-file', 'tasks'));
    const refused = (() => {
      try {
        records.seedSwapBegins('c', UID, 'p-1');
      } catch (e) {
        return e;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: 'permanent' });
    expect((refused as AppError).hint).toMatch(/writable/);
    expect(records.seed('c', UID)).toEqual({ state: 'unknown' });
  });
});
