/** Export and import: no secret leaves, bad input is refused with every problem listed, nothing half-imported. */
import { afterEach, describe, expect, it } from 'vitest';
import { EXPORT_FORMAT } from '../../../../main/services/profiles/profile-transfer';
import { openService, plainProfile, SENTINEL, tempDir } from './helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function service() {
  const opened = openService(await tempDir());
  cleanups.push(() => opened.service.close());
  return opened.service;
}

describe('export', () => {
  it('holds the fields the admin set, the token ID, and no secret, id or timestamp', async () => {
    const s = await service();
    await s.save({ profile: plainProfile(), secret: SENTINEL });
    await s.save({ profile: plainProfile({ name: 'By file', token: { secretStorage: 'file', tokenFile: '/etc/egress/token' } }) });

    const { fileName, json } = s.exportProfiles();

    expect(fileName).toMatch(/^egress-desk-profiles-\d{4}-\d{2}-\d{2}\.json$/);
    expect(json).not.toContain(SENTINEL);
    const file = JSON.parse(json);
    expect(file).toMatchObject({ format: EXPORT_FORMAT, version: 1 });
    expect(file.profiles).toHaveLength(2);
    expect(file.profiles[0].token).toEqual({ secretStorage: 'keyring', tokenId: 'proxy-operator@pve!operator' });
    expect(file.profiles[0].tls).toEqual(plainProfile().tls);
    for (const p of file.profiles) expect(Object.keys(p)).not.toEqual(expect.arrayContaining(['id']));
    expect(json).not.toMatch(/"(id|createdAt|updatedAt|secretAvailable)"/);
  });
});

describe('import', () => {
  it('round-trips an export into another app: same fields, fresh ids, secrets to enter again, clashing names renamed', async () => {
    const source = await service();
    await source.save({ profile: plainProfile(), secret: SENTINEL });
    const { json } = source.exportProfiles();

    const target = await service();
    await target.save({ profile: plainProfile(), secret: 'another-secret-long-enough' });
    const imported = await target.importProfiles(json);

    expect(imported).toHaveLength(1);
    expect(imported[0]).toMatchObject({ name: 'Lab (imported)', url: plainProfile().url, secretAvailable: false });
    expect(target.directory.list().map((c) => c.name)).toContain('Lab (imported)');
  });

  it('refuses bad input with every problem listed and imports nothing', async () => {
    const s = await service();
    const bad = {
      format: EXPORT_FORMAT,
      version: 1,
      profiles: [
        plainProfile({ url: 'http://pve:8006' }),
        { ...plainProfile({ nodes: ['Bad Node'] }), secret: SENTINEL },
        plainProfile({ templates: {}, vmidRange: { min: 200_000, max: 150_000 } }),
      ],
    };
    const failure = await s.importProfiles(JSON.stringify(bad)).catch((e: unknown) => e);

    expect(failure).toMatchObject({ kind: 'invalid-input' });
    const message = (failure as Error).message;
    // The shape problem (an unknown `secret` field) is reported first; nothing is checked further until the shape is right.
    expect(message).toMatch(/profiles\.1: Unrecognized key: "secret"/);
    expect(message).not.toContain(SENTINEL);

    delete (bad.profiles[1] as Record<string, unknown>).secret;
    const second = (await s.importProfiles(JSON.stringify(bad)).catch((e: Error) => e)) as Error;
    // An empty template catalogue is allowed (the template builder fills it): three problems.
    expect(second.message).toMatch(/has 3 problem/);
    expect(second.message).toMatch(/profiles\.0\.url: must be an https URL/);
    expect(second.message).toMatch(/profiles\.1\.nodes\.0: must be a Proxmox node name/);
    expect(second.message).not.toMatch(/profiles\.2\.templates/);
    expect(second.message).toMatch(/profiles\.2\.vmidRange\.max: min must be below max/);
    expect((await s.list()).profiles).toEqual([]);
  });

  it('says plainly when the text is not JSON or not an export, without quoting it', async () => {
    const s = await service();
    const notJson = (await s.importProfiles(`{"oops": "${SENTINEL}`).catch((e: Error) => e)) as Error;
    expect(notJson.message).toBe('The file is not valid JSON.');
    const other = (await s.importProfiles('{"hello": 1}').catch((e: Error) => e)) as Error;
    expect(other.message).toMatch(/format: /);
    expect(other.message).toMatch(/profiles: /);
  });
});
