/**
 * The profile file: a broken one is kept aside and reported, never fatal
 * and never silently replaced; an older version is migrated; the pinned
 * fingerprint and TLS choice survive a restart.
 */
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { emptyDocument } from '../../../../main/services/profiles/document';
import { ProfileService } from '../../../../main/services/profiles/service';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { startSimulator } from '../../../../main/simulator';
import type { ProfilesList } from '../../../../shared/channels/profiles';
import { openService, plainProfile, SENTINEL, tempDir } from './helpers';

const ctx = { signal: new AbortController().signal, transport: 'test' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function listThroughTheApp(dataDir: string): Promise<ProfilesList> {
  const app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger: createMemoryLogger(), dataDir, demo: 'off' });
  cleanups.push(() => app.dispose());
  const answer = await app.router.dispatch('profiles.list', {}, ctx);
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value as ProfilesList;
}

describe('a profile file that cannot be read', () => {
  it('is not JSON: kept aside byte for byte, the app starts, and the problem names the copy', async () => {
    const dir = await tempDir();
    const broken = '{"profiles": [ {"name": "half-writ';
    writeFileSync(join(dir, 'profiles.json'), broken);

    const list = await listThroughTheApp(dir);

    expect(list.profiles).toEqual([]);
    expect(list.storeProblem?.message).toMatch(/not valid JSON/);
    const backupPath = list.storeProblem?.backupPath ?? '';
    expect(backupPath).toMatch(/profiles\.corrupt-.*\.json$/);
    expect(list.storeProblem?.message).toContain(backupPath);
    expect(readFileSync(backupPath, 'utf8')).toBe(broken);
  });

  it('is JSON that breaks the schema: every problem named, the copy kept, never replaced silently', async () => {
    const dir = await tempDir();
    const handBroken = JSON.stringify({
      profiles: [{ ...plainProfile(), id: 'p1', createdAt: 'x', updatedAt: 'x', url: 'http://pve:8006', nodes: ['PVE One'] }],
      secrets: {},
      settings: {
        theme: 'system',
        proxyCheckUrl: 'https://example.invalid',
        cleanupGraceMinutes: 15,
        pollIntervals: { healthSeconds: 30, inventorySeconds: 5 },
      },
      __internal__: { migrations: { version: '2.0.0' } },
    });
    writeFileSync(join(dir, 'profiles.json'), handBroken);

    const list = await listThroughTheApp(dir);

    expect(list.profiles).toEqual([]);
    expect(list.storeProblem?.message).toMatch(/profiles\.0\.url: must be an https URL/);
    expect(list.storeProblem?.message).toMatch(/profiles\.0\.nodes\.0: must be a Proxmox node name/);
    expect(readFileSync(list.storeProblem!.backupPath!, 'utf8')).toBe(handBroken);
  });

  it('after being kept aside, the fresh file takes new profiles and the copy stays untouched', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'profiles.json'), 'not json at all');
    const { service } = openService(dir);
    cleanups.push(() => service.close());
    await service.save({ profile: plainProfile(), secret: 'a-secret-value-long-enough' });

    const files = readdirSync(dir).sort();
    expect(files.filter((f) => f.startsWith('profiles.corrupt-'))).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8')).profiles).toHaveLength(1);
  });
});

describe('migrations', () => {
  it('turns a 1.0.0 file (flat TLS fields, tokenId, {cipher} secrets) into the current document', async () => {
    const dir = await tempDir();
    const sim = await startSimulator({ timeScale: 0.001 });
    cleanups.push(() => sim.close());
    const admin = sim.tokens.admin!;
    const vault = createMemoryVault();
    const cipher = await vault.encrypt(admin.secret);
    const v1 = {
      __internal__: { migrations: { version: '1.0.0' } },
      clusters: [
        {
          id: 'c1',
          name: 'Old lab',
          url: sim.url,
          fingerprint: sim.fingerprint,
          serverName: 'pve-sim.home.lab',
          tokenId: admin.tokenId,
          nodes: ['pv1-1'],
          isoStorage: 'proxy-seeds',
          templates: { debian: { vmid: 9000 } },
          machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
        },
        {
          id: 'c2',
          name: 'File lab',
          url: 'https://pve2.home.lab:8006',
          tokenFile: '/etc/egress/token',
          nodes: ['pve2'],
          isoStorage: 'local',
          templates: { debian: { vmid: 9000 } },
          machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
        },
      ],
      secrets: { c1: { cipher } },
    };
    writeFileSync(join(dir, 'profiles.json'), JSON.stringify(v1));

    const { service } = openService(dir, vault);
    cleanups.push(() => service.close());
    const list = await service.list();

    expect(list.storeProblem).toBeUndefined();
    const [old, file] = list.profiles;
    expect(old).toMatchObject({
      id: 'c1',
      tls: { mode: 'pin', fingerprint: sim.fingerprint, serverName: 'pve-sim.home.lab' },
      token: { secretStorage: 'keyring', tokenId: admin.tokenId },
      secretAvailable: true,
    });
    expect(file).toMatchObject({ id: 'c2', tls: { mode: 'system' }, token: { secretStorage: 'file', tokenFile: '/etc/egress/token' } });
    expect(service.settings().cleanupGraceMinutes).toBe(15);
    const onDisk = JSON.parse(readFileSync(join(dir, 'profiles.json'), 'utf8'));
    expect(onDisk.__internal__.migrations.version).toBe('2.0.0');
    expect(onDisk.clusters).toBeUndefined();
    // The migrated secret is still the one the keyring sealed: the simulator accepts it.
    expect((await service.directory.get('c1').api.version()).version).toBeTruthy();
  });
});

describe('what survives a restart', () => {
  it('keeps the pinned fingerprint, the server-name override and the TLS choice for the doctor to compare', async () => {
    const dir = await tempDir();
    const vault = createMemoryVault();
    const first = openService(dir, vault);
    const saved = await first.service.save({ profile: plainProfile(), secret: SENTINEL });
    await first.service.close();

    const second = openService(dir, vault);
    cleanups.push(() => second.service.close());
    const again = second.service.get(saved.id);
    expect(again.tls).toEqual(plainProfile().tls);
    expect(second.service.directory.get(saved.id).profile.tls).toEqual(plainProfile().tls);
    expect(again.secretAvailable).toBe(true);
  });

  it('forgets a session-only secret at restart and says the profile needs it again', async () => {
    const dir = await tempDir();
    const vault = createMemoryVault({ kind: 'basic_text', protected: false, detail: 'no keyring' });
    const first = openService(dir, vault);
    const saved = await first.service.save({
      profile: plainProfile({ token: { secretStorage: 'session', tokenId: 'proxy-operator@pve!operator' } }),
      secret: SENTINEL,
    });
    expect(saved.secretAvailable).toBe(true);
    await first.service.close();

    const second = openService(dir, vault);
    cleanups.push(() => second.service.close());
    expect(second.service.get(saved.id).secretAvailable).toBe(false);
    const failure = await second.service.directory
      .get(saved.id)
      .api.version()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ failureClass: 'permanent' });
    expect(String((failure as Error).message)).toMatch(/not available.*Enter it again/);
  });
});

describe('a write that fails', () => {
  it('is reported as transient, and neither the file nor the profiles in memory change', async () => {
    const failing = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    const service = new ProfileService({
      opened: {
        store: {
          path: '/data/profiles.json',
          read: () => ({}),
          write: () => {
            throw failing;
          },
        },
        doc: emptyDocument(),
      },
      vault: createMemoryVault(),
      logger: createMemoryLogger(),
    });
    cleanups.push(() => service.close());
    const failure = await service.save({ profile: plainProfile(), secret: SENTINEL }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'transient' });
    // Said in words (issue 10), the folder named: the disk holding it is full.
    expect((failure as Error).message).toBe('Could not save: the disk holding /data is full. Free space and save again.');
    expect(failure).toMatchObject({ hint: expect.stringMatching(/nothing was changed/) });
    expect((await service.list()).profiles).toEqual([]);
    expect(service.directory.list()).toEqual([]);
  });
});
