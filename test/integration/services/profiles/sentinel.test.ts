/**
 * The token secret stays in main: never in an answer or event of the
 * profiles channels, never in a log line, never in the profile file in
 * clear text, never in an export, and not on disk at all for a session-only
 * secret. The secret is a sentinel string searched for everywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import type { SecretVault } from '../../../../main/services/secrets/vault';
import { startSimulator } from '../../../../main/simulator';
import { channelNames } from '../../../../shared/contract';
import { profilesChannels } from '../../../../shared/channels/profiles';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { plainProfile, SENTINEL, simProfile, tempDir } from './helpers';

const ctx = { signal: new AbortController().signal, transport: 'test' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function filesIn(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

async function composed(vault: SecretVault) {
  const dataDir = await tempDir();
  const logger = createMemoryLogger('debug');
  const app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger, dataDir, demo: 'off', secretVault: vault });
  const events: string[] = [];
  app.bus.subscribe((name, payload) => events.push(JSON.stringify({ name, payload })));
  cleanups.push(() => app.dispose());
  const call = async (channel: string, input: unknown) => {
    const answer = await app.router.dispatch(channel, input, ctx);
    return { text: JSON.stringify(answer), answer };
  };
  return { app, dataDir, logger, events, call };
}

describe('the sentinel secret', () => {
  it('crosses no output of any profiles channel, no event, no log line and no file, in every storage', async () => {
    // The simulator accepts the sentinel as a token's secret, so the secret is really sent with requests.
    const tokenId = 'desk@pve!sentinel';
    const sim = await startSimulator({
      timeScale: 0.001,
      tokens: { sentinel: { tokenId, secret: SENTINEL, acl: { '/': ['Sys.Audit'] } } },
    });
    cleanups.push(() => sim.close());

    const { app, dataDir, logger, events, call } = await composed(createMemoryVault());
    const outputs: string[] = [];
    const saved = await call('profiles.save', { profile: simProfile(sim, tokenId), secret: SENTINEL });
    expect(saved.answer.ok).toBe(true);
    outputs.push(saved.text);
    const id = (saved.answer as { value: ProfileSummary }).value.id;
    const cluster = app.profiles.directory.get(id);
    // Use the secret for real: an accepted request, then one Proxmox refuses (no VM.Audit), whose error is logged.
    await cluster.api.version();
    await expect(cluster.api.vmConfig('pv1-1', 100)).rejects.toThrow();
    outputs.push((await call('profiles.save', { id, profile: simProfile(sim, tokenId, { name: 'Renamed' }) })).text);

    const covered = new Set<string>();
    const inputs: Record<string, unknown> = {
      'profiles.list': {},
      'profiles.export': {},
      'profiles.import': { json: '{"format":"egress-desk-profiles","version":1,"profiles":[]}' },
      'settings.get': {},
      'settings.set': { settings: { theme: 'dark' } },
    };
    for (const [channel, input] of Object.entries(inputs)) {
      outputs.push((await call(channel, input)).text);
      covered.add(channel);
    }
    // A secret sent in an input that is refused is not echoed back.
    outputs.push((await call('profiles.save', { profile: { ...simProfile(sim, tokenId), url: SENTINEL }, secret: SENTINEL })).text);
    outputs.push((await call('profiles.delete', { id })).text);
    covered.add('profiles.save').add('profiles.delete');

    expect([...covered].sort()).toEqual(Object.keys(profilesChannels).sort());
    expect(channelNames).toEqual(expect.arrayContaining(Object.keys(profilesChannels)));
    for (const text of [...outputs, ...events, ...logger.lines]) expect(text).not.toContain(SENTINEL);
    expect(events.some((e) => e.includes('profiles.changed'))).toBe(true);
    expect(filesIn(dataDir)).not.toContain(SENTINEL);
  });

  it('is sealed in the file for keyring and for knowingly unprotected storage, and absent from it for a session', async () => {
    for (const [storage, vault] of [
      ['keyring', createMemoryVault()],
      ['plaintext', createMemoryVault({ kind: 'basic_text', protected: false, detail: 'fixed password' })],
      ['plaintext', createMemoryVault({ kind: 'unavailable', protected: false, detail: 'nothing' })],
      ['session', createMemoryVault({ kind: 'basic_text', protected: false, detail: 'fixed password' })],
    ] as const) {
      const { dataDir, call } = await composed(vault);
      const token = { secretStorage: storage, tokenId: 'proxy-operator@pve!operator' };
      const saved = await call('profiles.save', { profile: plainProfile({ token }), secret: SENTINEL });
      expect(saved.answer.ok, `${storage} on ${(await vault.backend()).kind}`).toBe(true);
      const file = readFileSync(join(dataDir, 'profiles.json'), 'utf8');
      expect(file).not.toContain(SENTINEL);
      const secrets = JSON.parse(file).secrets as Record<string, unknown>;
      expect(Object.keys(secrets)).toHaveLength(storage === 'session' ? 0 : 1);
    }
  });
});

describe('where the OS has no keyring', () => {
  it('refuses keyring storage with the reason and the two choices, and accepts session or unprotected', async () => {
    const vault = createMemoryVault({ kind: 'basic_text', protected: false, detail: 'Linux basic_text: a fixed password.' });
    const { call } = await composed(vault);
    const list = await call('profiles.list', {});
    expect(list.answer).toMatchObject({ ok: true, value: { vault: { kind: 'basic_text', protected: false } } });

    const refused = await call('profiles.save', { profile: plainProfile(), secret: SENTINEL });
    expect(refused.answer).toMatchObject({ ok: false, error: { kind: 'permanent', field: 'token.secretStorage' } });
    const { error } = refused.answer as { error: { message: string; hint: string } };
    expect(error.message).toContain('Linux basic_text');
    expect(error.hint).toMatch(/this session only.*store unprotected/);
  });

  it('with a keyring, does not store the secret unprotected', async () => {
    const { call } = await composed(createMemoryVault());
    const refused = await call('profiles.save', {
      profile: plainProfile({ token: { secretStorage: 'plaintext', tokenId: 'proxy-operator@pve!operator' } }),
      secret: SENTINEL,
    });
    expect(refused.answer).toMatchObject({ ok: false, error: { kind: 'permanent' } });
  });
});
