/**
 * Issue 10: a fresh install whose data folder cannot be written still starts. With no profile file yet and its
 * first write failing (disk full, read-only), the app starts empty (the built-in demo works), says so in the
 * profiles list and the tasks snapshot's notices, and a save says why it failed, in words and classified; once the
 * disk has room (or is writable) the same save lands on disk. On a real small disk (a tmpfs the test mounts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp, type ComposedApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { mountSmallDisk, smallDiskMissing, type SmallDisk } from '../../../support/small-disk';
import { plainProfile } from './helpers';

const missing = smallDiskMissing();
if (missing) console.log(`[unwritable data folder] skipped: ${missing}`);

type Answer<T> = { ok: true; value: T } | { ok: false; error: { kind: string; message: string; hint: string } };
type ProfilesList = { profiles: { id: string; name: string }[]; storeProblem?: { message: string; backupPath?: string } };

let disk: SmallDisk | undefined;
let app: ComposedApp | undefined;
afterEach(async () => {
  await app?.dispose();
  app = undefined;
  disk?.unmount();
  disk = undefined;
});

const ctx = { signal: new AbortController().signal, transport: 'test' };

function start(dataDir: string, demo: 'auto' | 'off' = 'off') {
  app = composeApp({ mode: 'browser', version: '0', runtime: nodeRuntime(), logger: createMemoryLogger(), dataDir, demo });
  const a = app;
  return async <T>(channel: string, input: unknown = {}) => (await a.router.dispatch(channel, input, ctx)) as Answer<T>;
}

// Plaintext storage: in browser mode the secret is sealed with the key file, so the save writes it too.
const save = { profile: plainProfile({ token: { secretStorage: 'plaintext', tokenId: 'egress@pve!desk' } }), secret: 'x'.repeat(36) };

describe.skipIf(missing !== undefined)('a fresh install on a data folder it cannot write', () => {
  it('full disk: starts empty with the demo and says so; a save says the disk is full (transient); after freeing space it saves', async () => {
    disk = mountSmallDisk(256);
    disk.fill();
    const dataDir = join(disk.dir, 'egress-desk');
    const call = start(dataDir, 'auto');

    const list = await call<ProfilesList>('profiles.list');
    if (!list.ok) throw new Error(list.error.message);
    expect(list.value.storeProblem?.message).toMatch(
      /disk holding .*egress-desk is full.*started with no saved clusters \(the built-in demo still works\)/,
    );
    expect(list.value.storeProblem?.backupPath).toBeUndefined();
    expect(list.value.profiles).toHaveLength(1); // the demo
    const tasks = await call<{ notices?: string[] }>('tasks.list');
    expect(tasks.ok && tasks.value.notices?.some((n) => /egress-desk is full/.test(n))).toBe(true);

    const refused = await call('profiles.save', save);
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'transient', message: `Could not save: the disk holding ${dataDir} is full. Free space and save again.` },
    });

    disk.free();
    const saved = await call<{ id: string }>('profiles.save', save);
    if (!saved.ok) throw new Error(saved.error.message);
    expect(existsSync(join(dataDir, 'profiles.json'))).toBe(true);
    await app!.dispose();

    // The next start reads what was saved, with nothing to report.
    const again = start(dataDir);
    const relisted = await again<ProfilesList>('profiles.list');
    expect(relisted.ok && relisted.value.profiles.map((p) => p.id)).toEqual([saved.value.id]);
    expect(relisted.ok && relisted.value.storeProblem).toBeUndefined();
  });

  it('read-only parent: starts empty and says so; a save says the disk is read-only; once writable it saves', async () => {
    disk = mountSmallDisk(256);
    disk.readOnly();
    const dataDir = join(disk.dir, 'egress-desk');
    const call = start(dataDir);

    const list = await call<ProfilesList>('profiles.list');
    if (!list.ok) throw new Error(list.error.message);
    expect(list.value.storeProblem?.message).toMatch(/egress-desk is on a read-only disk.*started with no saved clusters/);
    expect(list.value.profiles).toEqual([]);

    const refused = await call('profiles.save', save);
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'permanent', message: expect.stringMatching(/^Could not save: .* read-only disk/) },
    });
    expect(existsSync(dataDir)).toBe(false);

    disk.writable();
    const saved = await call<{ id: string }>('profiles.save', save);
    if (!saved.ok) throw new Error(saved.error.message);
    expect(existsSync(join(dataDir, 'profiles.json'))).toBe(true);
  });

  // Issue 22: a file an older version wrote is upgraded by writing it; a folder that cannot be written must not hide it.
  for (const fault of ['readOnly', 'diskFull'] as const) {
    it(`${fault === 'readOnly' ? 'read-only' : 'full'} disk with an older version's profile file: its clusters are read, nothing is moved aside; the first save once writable upgrades it`, async () => {
      disk = mountSmallDisk(256);
      const dataDir = join(disk.dir, 'egress-desk');
      mkdirSync(dataDir);
      const v1 = {
        __internal__: { migrations: { version: '1.0.0' } },
        clusters: [{ ...plainProfile(), id: 'c1', name: 'Old lab', tokenId: 'egress@pve!desk' }],
      };
      delete (v1.clusters[0] as { tls?: unknown }).tls;
      delete (v1.clusters[0] as { token?: unknown }).token;
      const original = JSON.stringify(v1);
      writeFileSync(join(dataDir, 'profiles.json'), original);
      if (fault === 'readOnly') disk.readOnly();
      else disk.fill([join(dataDir, 'profiles.json')]);
      const call = start(dataDir);

      const list = await call<ProfilesList>('profiles.list');
      if (!list.ok) throw new Error(list.error.message);
      expect(list.value.profiles.map((p) => p.name)).toEqual(['Old lab']);
      expect(list.value.storeProblem?.message).toMatch(
        fault === 'readOnly' ? /egress-desk is on a read-only disk/ : /disk holding .*egress-desk is full/,
      );
      expect(list.value.storeProblem?.message).toMatch(/older version.*upgraded at the first save/);
      expect(list.value.storeProblem?.backupPath).toBeUndefined();
      expect(readdirSync(dataDir).filter((f) => f.includes('corrupt'))).toEqual([]);
      expect(JSON.parse(readFileSync(join(dataDir, 'profiles.json'), 'utf8'))).toEqual(JSON.parse(original)); // untouched (the fill pads it with blanks)

      const refused = await call('profiles.save', save);
      expect(refused).toMatchObject({ ok: false, error: { kind: fault === 'readOnly' ? 'permanent' : 'transient' } });

      if (fault === 'readOnly') disk.writable();
      else disk.free();
      const saved = await call<{ id: string }>('profiles.save', save);
      if (!saved.ok) throw new Error(saved.error.message);
      const onDisk = JSON.parse(readFileSync(join(dataDir, 'profiles.json'), 'utf8')) as {
        profiles: { name: string }[];
        clusters?: unknown;
      };
      expect(onDisk.profiles.map((p) => p.name).sort()).toEqual(['Lab', 'Old lab']);
      expect(onDisk.clusters).toBeUndefined();
    });
  }
});
