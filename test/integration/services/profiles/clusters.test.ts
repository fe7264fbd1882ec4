/**
 * The directory the other services read follows the profiles: a saved
 * profile is a working cluster, an edit rebuilds it, a delete removes it.
 * A token file is read on every request. With no profile, the app opens on
 * the simulated demo cluster, labelled as such.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { startSimulator, type Simulator } from '../../../../main/simulator';
import type { ProfilesList } from '../../../../shared/channels/profiles';
import { openService, plainProfile, simProfile, tempDir } from './helpers';

const ctx = { signal: new AbortController().signal, transport: 'test' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function sim(): Promise<Simulator> {
  const s = await startSimulator({ timeScale: 0.001 });
  cleanups.push(() => s.close());
  return s;
}

describe('clusters from profiles', () => {
  it('a saved profile is a working cluster; an edit rebuilds it; a delete removes it', async () => {
    const s = await sim();
    const { service } = openService(await tempDir());
    cleanups.push(() => service.close());
    const changes: number[] = [];
    service.directory.subscribe(() => changes.push(service.directory.list().length));

    const admin = s.tokens.admin!;
    const saved = await service.save({ profile: simProfile(s, admin.tokenId), secret: admin.secret });
    const first = service.directory.get(saved.id);
    expect(first).toMatchObject({ name: 'Home lab', demo: false });
    expect((await first.api.version()).version).toBeTruthy();

    await service.save({ id: saved.id, profile: simProfile(s, admin.tokenId, { name: 'Renamed' }) });
    const second = service.directory.get(saved.id);
    expect(second).not.toBe(first);
    expect(second.name).toBe('Renamed');
    expect((await second.api.nodes()).length).toBe(s.state.nodes.size);

    expect(await service.remove(saved.id)).toBe(true);
    expect(() => service.directory.get(saved.id)).toThrow(/no cluster/);
    expect(changes.at(-1)).toBe(0);
  });

  it('moves a held secret to another storage without asking for it again, and needs a new one for a new token ID', async () => {
    const s = await sim();
    const { service } = openService(await tempDir());
    cleanups.push(() => service.close());
    const admin = s.tokens.admin!;
    const saved = await service.save({ profile: simProfile(s, admin.tokenId), secret: admin.secret });

    await service.save({
      id: saved.id,
      profile: simProfile(s, admin.tokenId, { token: { secretStorage: 'session', tokenId: admin.tokenId } }),
    });
    expect((await service.directory.get(saved.id).api.version()).version).toBeTruthy();

    const other = s.tokens.operator!.tokenId;
    await expect(service.save({ id: saved.id, profile: simProfile(s, other) })).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'secret',
    });
  });

  it('reads a token file on every request, so a rotated token needs no restart', async () => {
    const s = await sim();
    const dir = await tempDir();
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'nobody@pve!wrong=not-the-secret\n');
    const { service } = openService(dir);
    cleanups.push(() => service.close());
    const saved = await service.save({ profile: simProfile(s, 'unused@pve!x', { token: { secretStorage: 'file', tokenFile } }) });
    expect(saved.secretAvailable).toBe(true);
    const cluster = service.directory.get(saved.id);
    await expect(cluster.api.version()).rejects.toThrow(/401|authentication/i);

    const admin = s.tokens.admin!;
    writeFileSync(tokenFile, `${admin.tokenId}=${admin.secret}\n`);
    expect((await cluster.api.version()).version).toBeTruthy();
  });

  it('refuses a profile with problems, listing each field, and changes nothing', async () => {
    const { service } = openService(await tempDir());
    cleanups.push(() => service.close());
    const failure = await service
      .save({
        profile: plainProfile({ url: 'https://pve:8006/api2/json', nodes: [], isoStorage: '1bad' }),
        secret: 'x-secret-value-long-enough',
      })
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: 'invalid-input', field: 'profile.url' });
    expect((failure as Error).message).toMatch(/3 problem/);
    expect((failure as Error).message).toMatch(/profile\.nodes: list at least one node/);
    expect((failure as Error).message).toMatch(/profile\.isoStorage: must be a Proxmox storage id/);
    expect((await service.list()).profiles).toEqual([]);
  });
});

describe('the first-run demo', () => {
  it('opens on the simulated cluster when no profile is stored, labelled, pinned, and working', async () => {
    const app = composeApp({
      mode: 'browser',
      version: '0',
      runtime: nodeRuntime(),
      logger: createMemoryLogger(),
      dataDir: await tempDir(),
    });
    cleanups.push(() => app.dispose());
    const answer = await app.router.dispatch('profiles.list', {}, ctx);
    expect(answer.ok).toBe(true);
    const list = (answer as { value: ProfilesList }).value;

    expect(list.profiles).toHaveLength(1);
    const demo = list.profiles[0]!;
    expect(demo).toMatchObject({ id: 'demo', name: 'Demo cluster (simulated)', demo: true, tls: { mode: 'pin' } });
    const cluster = app.profiles.directory.get('demo');
    expect(cluster.demo).toBe(true);
    expect((await cluster.api.nodes()).map((n) => n.node).sort()).toEqual(demo.nodes.slice().sort());
    const refused = await app.router.dispatch('profiles.delete', { id: 'demo' }, ctx);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'permanent' } });
  });

  it('is not started when a profile is stored, nor when turned off', async () => {
    const dataDir = await tempDir();
    const first = openService(dataDir);
    await first.service.save({ profile: plainProfile(), secret: 'some-secret-value' });
    await first.service.close();

    for (const demo of ['auto', 'off'] as const) {
      const app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger: createMemoryLogger(), dataDir, demo });
      cleanups.push(() => app.dispose());
      const answer = (await app.router.dispatch('profiles.list', {}, ctx)) as { value: ProfilesList };
      expect(answer.value.profiles.map((p) => p.demo)).toEqual([false]);
    }
  });
});
