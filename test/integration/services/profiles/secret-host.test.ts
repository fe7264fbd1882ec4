/**
 * A stored token secret is bound to the server it was saved for: a doctor
 * run on a saved profile with another URL, or a save that changes only the
 * URL, is refused until the secret is given again, and the stored secret
 * (a sentinel) never reaches the other host. The other host is a loopback
 * HTTPS server that records every header it is sent, pinned so that TLS
 * would let the token through if the app did not stop it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { startSimulator, type Simulator } from '../../../../main/simulator';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { startHeaderRecorder, type HeaderRecorder } from '../../../support/header-recorder';
import { SENTINEL, simProfile, tempDir } from './helpers';

const ctx = { signal: new AbortController().signal, transport: 'test' };
const tokenId = 'desk@pve!sentinel';
const OTHER_SECRET = '0f7c3a2e-9d41-4b6a-8e15-3c2d1b0a9f8e';
let sim: Simulator;
let recorder: HeaderRecorder;
let app: ComposedApp;
let id: string;

const call = (channel: string, input: unknown) => app.router.dispatch(channel, input, ctx);
const pinRecorder = () => ({ mode: 'pin' as const, fingerprint: recorder.fingerprint });
const host = () => new URL(recorder.url).host;

beforeAll(async () => {
  sim = await startSimulator({ timeScale: 0.001, tokens: { sentinel: { tokenId, secret: SENTINEL, acl: { '/': ['Sys.Audit'] } } } });
  recorder = await startHeaderRecorder();
  app = composeApp({
    mode: 'browser',
    version: '0',
    runtime: nodeRuntime(),
    logger: createMemoryLogger(),
    dataDir: await tempDir(),
    demo: 'off',
    secretVault: createMemoryVault(),
  });
  const saved = await call('profiles.save', { profile: simProfile(sim, tokenId), secret: SENTINEL });
  if (!saved.ok) throw new Error(saved.error.message);
  id = (saved.value as ProfileSummary).id;
});
afterAll(async () => {
  await app?.dispose();
  await recorder?.close();
  await sim?.close();
});

describe('doctor.run on a saved profile with another URL', () => {
  it('is refused on the secret field, and the stored secret never reaches the other host', async () => {
    const answer = await call('doctor.run', { profileId: id, url: recorder.url, tls: pinRecorder() });
    expect(recorder.headerText()).not.toContain(SENTINEL);
    expect(answer).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'secret',
        message: `The server address changed: enter the token secret again for ${host()}.`,
      },
    });
    expect(recorder.requests).toHaveLength(0);
  });

  it('runs when the secret is given again, and sends that secret, not the stored one', async () => {
    const answer = await call('doctor.run', { profileId: id, url: recorder.url, tls: pinRecorder(), tokenId, secret: OTHER_SECRET });
    expect(answer.ok).toBe(true);
    expect(recorder.headerText()).toContain(OTHER_SECRET);
    expect(recorder.headerText()).not.toContain(SENTINEL);
  });

  it('the same server with another certificate check (no verification) is refused too', async () => {
    const answer = await call('doctor.run', { profileId: id, tls: { mode: 'insecure' } });
    expect(answer).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'secret', message: expect.stringMatching(/certificate check changed/) },
    });
    expect((await call('doctor.run', { profileId: id, tls: { mode: 'pin', fingerprint: sim.fingerprint } })).ok).toBe(true);
  });

  it('the same server spelt another way (a trailing slash) is not a change', async () => {
    const answer = await call('doctor.run', { profileId: id, url: `${sim.url}/` });
    expect(answer.ok).toBe(true);
  });
});

describe('doctor.run on a saved token-file profile with another URL', () => {
  let fileId: string;
  beforeAll(async () => {
    const dir = await tempDir();
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, `${tokenId}=${SENTINEL}\n`, { mode: 0o600 });
    const profile = simProfile(sim, tokenId, { name: 'By file', token: { secretStorage: 'file', tokenFile } });
    const saved = await call('profiles.save', { profile });
    if (!saved.ok) throw new Error(saved.error.message);
    fileId = (saved.value as ProfileSummary).id;
  });

  it("is refused too: the file's secret never reaches the other host", async () => {
    const answer = await call('doctor.run', { profileId: fileId, url: recorder.url, tls: pinRecorder() });
    expect(recorder.headerText()).not.toContain(SENTINEL);
    expect(answer).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'secret' } });
  });

  it('runs with the file on its own server, however the URL is spelt', async () => {
    const answer = await call('doctor.run', { profileId: fileId, url: `${sim.url}/` });
    expect(answer).toMatchObject({ ok: true, value: { token: { status: 'ok' } } });
  });
});

describe('profiles.save changing only the URL', () => {
  it('is refused on the secret field; the cluster keeps its server, and the secret never reaches the new one', async () => {
    const moved = simProfile(sim, tokenId, { url: recorder.url, tls: pinRecorder() });
    const answer = await call('profiles.save', { id, profile: moved });
    // Whatever the directory holds now is used for real: the secret must not reach the new server.
    await app.profiles.directory
      .get(id)
      .api.version()
      .catch(() => undefined);
    expect(recorder.headerText()).not.toContain(SENTINEL);
    expect(answer).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'secret',
        message: `The server address changed: enter the token secret again for ${host()}.`,
      },
    });
    expect(app.profiles.directory.get(id).profile.url).toBe(sim.url);
  });

  it('is accepted with the secret given again, which is then the one sent', async () => {
    const before = recorder.requests.length;
    const moved = simProfile(sim, tokenId, { url: recorder.url, tls: pinRecorder() });
    const answer = await call('profiles.save', { id, profile: moved, secret: OTHER_SECRET });
    expect(answer.ok).toBe(true);
    await app.profiles.directory
      .get(id)
      .api.version()
      .catch(() => undefined);
    expect(recorder.requests.length).toBeGreaterThan(before);
    expect(recorder.headerText()).toContain(OTHER_SECRET);
    expect(recorder.headerText()).not.toContain(SENTINEL);
  });
});
