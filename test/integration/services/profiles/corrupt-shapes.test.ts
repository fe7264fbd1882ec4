/**
 * A profile file that is valid JSON but not an object (`null`, an array, a
 * number, a string) is as broken as any other: kept aside byte for byte as
 * a `.corrupt-` copy and reported, never read as "no profiles" and then
 * overwritten.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import type { ProfilesList } from '../../../../shared/channels/profiles';
import { tempDir } from './helpers';

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

describe('a profile file holding JSON that is not an object', () => {
  it.each([
    ['null', 'null'],
    ['an empty array', '[]'],
    ['an array of profiles', '[{"name": "Lab", "url": "https://pve:8006"}]'],
    ['a number', '42'],
    ['a string', '"profiles"'],
  ])('%s: kept aside as a .corrupt- copy, reported, and not replaced', async (_, text) => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'profiles.json'), text);

    const list = await listThroughTheApp(dir);

    expect(list.profiles).toEqual([]);
    expect(list.storeProblem?.message).toMatch(/not a JSON object with profiles/);
    const backupPath = list.storeProblem?.backupPath ?? '';
    expect(backupPath).toMatch(/profiles\.corrupt-.*\.json$/);
    expect(list.storeProblem?.message).toContain(backupPath);
    expect(readFileSync(backupPath, 'utf8')).toBe(text);
    expect(readdirSync(dir).filter((f) => f.startsWith('profiles.corrupt-'))).toHaveLength(1);
  });

  it('an empty object is still a fresh file, not a problem', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'profiles.json'), '{}');
    const list = await listThroughTheApp(dir);
    expect(list.storeProblem).toBeUndefined();
    expect(readdirSync(dir).filter((f) => f.startsWith('profiles.corrupt-'))).toEqual([]);
  });
});
