/**
 * Issue 26: ProfileService.tokenLine, the one line the hand-off bundle's
 * `proxmox-token` file holds when the user asks for it. Each profile gets
 * its own sealed secret and never another's; a token file is read as the
 * requests read it; a secret the app no longer holds, or a token file that is
 * missing or malformed, is said in words that never quote a secret.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toAppErrorValue } from '../../../../main/errors/app-error';
import { createMemoryVault } from '../../../../main/services/secrets/aes-vault';
import { openService, plainProfile, SENTINEL, tempDir } from './helpers';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const OTHER = 'other-secret-0b3c-4d5e-6f70-8192a3b4c5d6';

async function failure(p: Promise<unknown>) {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  const value = toAppErrorValue(err);
  expect(value, String(err)).toBeDefined();
  return value!;
}

describe('the token line for a hand-off bundle', () => {
  it('is each profile’s own token id and secret, never another profile’s', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const { service, logger } = openService(dataDir, createMemoryVault());
    const a = await service.save({ profile: plainProfile({ name: 'A' }), secret: OTHER });
    const b = await service.save({ profile: plainProfile({ name: 'B', token: { secretStorage: 'keyring', tokenId: 'desk@pve!b' } }), secret: SENTINEL });
    expect(await service.tokenLine(a.id)).toBe(`proxy-operator@pve!operator=${OTHER}`);
    expect(await service.tokenLine(b.id)).toBe(`desk@pve!b=${SENTINEL}`);
    expect(logger.lines.filter((l) => l.includes(SENTINEL) || l.includes(OTHER))).toEqual([]);
    await service.close();
  });

  it('a session-only secret after a restart is not available, said in words', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const vault = createMemoryVault();
    const first = openService(dataDir, vault).service;
    const saved = await first.save({ profile: plainProfile({ token: { secretStorage: 'session', tokenId: 'desk@pve!s' } }), secret: SENTINEL });
    await first.close();
    const again = openService(dataDir, vault).service;
    const value = await failure(again.tokenLine(saved.id));
    expect(value).toMatchObject({ kind: 'permanent' });
    expect(value.message).toMatch(/token secret of cluster "Lab" is not available/);
    expect(JSON.stringify(value)).not.toContain(SENTINEL);
    await again.close();
  });

  it('a token file is read as its one line; missing or malformed is said, its content never quoted', async () => {
    const dataDir = await tempDir();
    dirs.push(dataDir);
    const tokenFile = join(dataDir, 'proxmox-token');
    const { service } = openService(dataDir, createMemoryVault());
    const saved = await service.save({ profile: plainProfile({ token: { secretStorage: 'file', tokenFile } }) });
    const missing = await failure(service.tokenLine(saved.id));
    expect(missing.kind).toBe('transient');
    expect(missing.message).toContain(`The token file ${tokenFile} does not exist`);
    expect(missing.hint).toMatch(/leave the token out of the bundle/);
    writeFileSync(tokenFile, `  desk@pve!f=${SENTINEL}\n`, { mode: 0o600 });
    expect(await service.tokenLine(saved.id)).toBe(`desk@pve!f=${SENTINEL}`);
    writeFileSync(tokenFile, `${SENTINEL} and more\n`, { mode: 0o600 });
    const malformed = await failure(service.tokenLine(saved.id));
    expect(malformed.kind).toBe('permanent');
    expect(malformed.message).toMatch(/is not one line of the form/);
    expect(JSON.stringify(malformed)).not.toContain(SENTINEL);
    await expect(service.tokenLine('no-such-profile')).rejects.toMatchObject({ kind: 'not-found' });
    await service.close();
  });
});
