import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { createMemoryLogger } from '../../../../main/log/logger';
import { startSimulator, type Simulator } from '../../../../main/simulator';

const SENTINEL = 'SENTINEL-doctor-ipc-0b7d41c3';
const logger = createMemoryLogger('debug');
let sim: Simulator;
let app: ComposedApp;
beforeAll(async () => {
  sim = await startSimulator({
    timeScale: 0.001,
    tokens: { sentinel: { tokenId: 'root@pam!sentinel', secret: SENTINEL, acl: { '/': ['Sys.Audit'] } } },
  });
  app = composeApp({
    mode: 'browser',
    version: '0.0.0-test',
    runtime: { node: process.version, electron: null, chrome: null, platform: process.platform },
    logger,
    demo: 'off',
  });
});
afterAll(async () => {
  await app.dispose();
  await sim.close();
});

const ctx = () => ({ signal: new AbortController().signal, transport: 'test' });

describe('doctor.run through the IPC router', () => {
  it('answers a report inside the contract, without the secret', async () => {
    const input = { url: sim.url, tokenId: 'root@pam!sentinel', secret: SENTINEL, tls: { mode: 'pin', fingerprint: sim.fingerprint } };
    const envelope = await app.router.dispatch('doctor.run', input, ctx());
    expect(envelope).toMatchObject({ ok: true, value: { token: { status: 'ok' }, privileges: { status: 'fail' } } });
    // A token that may audit nothing but the system: what it cannot see is said as such.
    const value = (envelope as { value: { discovery: { message: string } } }).value;
    expect(value.discovery.message).toContain('Datastore.Audit');
    expect(value.discovery.message).toContain('VM.Audit');
    expect(JSON.stringify(envelope)).not.toContain(SENTINEL);
    expect(logger.lines.join('\n')).not.toContain(SENTINEL);
  });

  it('refuses malformed input with the field named, and an unknown profile as not-found', async () => {
    const bad = await app.router.dispatch('doctor.run', { url: sim.url, tokenId: 'no-realm' }, ctx());
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'tokenId' } });
    const gone = await app.router.dispatch('doctor.run', { profileId: 'no-such-profile' }, ctx());
    expect(gone).toMatchObject({ ok: false, error: { kind: 'not-found' } });
  });
});
