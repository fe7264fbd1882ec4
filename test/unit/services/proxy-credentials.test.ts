/**
 * Issue 24: the proxies' credentials. The hash the Squid preset's htpasswd
 * file carries is accepted by Debian's own basic_ncsa_auth (and is the same
 * as `openssl passwd`); the store makes credentials only for a user-data that
 * asks for them, fills every placeholder, answers by VMID only for the VM it
 * was made for, and forgets a deleted proxy's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { md5Crypt, newSalt } from '../../../main/services/proxy-credentials/md5-crypt';
import { createProxyCredentialStore, newPassword, type KnownVm } from '../../../main/services/proxy-credentials/store';
import { createLogger } from '../../../main/log/logger';
import type { SecretVault } from '../../../main/services/secrets/vault';
import { CREDENTIAL_PLACEHOLDERS, wantsCredentials } from '../../../shared/domain/proxy-credentials';
import { presets } from '../../../renderer/src/views/create/presets';

const NCSA = '/usr/lib/squid/basic_ncsa_auth';

/** basic_ncsa_auth's verdict ("OK" / "ERR …") for each "user password" line, against an htpasswd file. */
function ncsa(htpasswd: string, lines: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'egress-ncsa-'));
  try {
    const file = join(dir, 'passwords');
    writeFileSync(file, htpasswd);
    const r = spawnSync(NCSA, [file], { input: lines.map((l) => `${l}\n`).join(''), encoding: 'utf8', timeout: 10_000 });
    return r.stdout.trim().split('\n').map((l) => l.trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('md5-crypt', () => {
  it('gives what openssl passwd gives, for both magics', () => {
    for (const [flag, magic] of [
      ['-apr1', '$apr1$'],
      ['-1', '$1$'],
    ] as const) {
      const password = newPassword();
      const salt = newSalt();
      const openssl = spawnSync('openssl', ['passwd', flag, '-salt', salt, password], { encoding: 'utf8' });
      if (openssl.status !== 0) continue;
      expect(md5Crypt(password, salt, magic)).toBe(openssl.stdout.trim());
    }
  });

  it.skipIf(!existsSync(NCSA))("is accepted by Debian's basic_ncsa_auth for the right password, and no other", () => {
    const password = newPassword();
    const line = `egress:${md5Crypt(password, newSalt(), '$apr1$')}\n`;
    expect(ncsa(line, [`egress ${password}`, `egress ${newPassword()}`, `other ${password}`])).toEqual([
      'OK',
      expect.stringMatching(/^ERR/),
      expect.stringMatching(/^ERR/),
    ]);
  });
});

const logger = createLogger({ level: 'error' });
/** A vault like a desktop with a keyring: "encrypts" reversibly, and says it is protected. */
const keyring: SecretVault = {
  backend: async () => ({ kind: 'keyring', protected: true, detail: 'test' }),
  encrypt: async (text) => `enc:${Buffer.from(text).toString('hex')}`,
  decrypt: async (text) => Buffer.from(text.slice(4), 'hex').toString('utf8'),
};

/** A machine with no keyring (browser mode's, a headless Linux): nothing protected. */
const unprotected: SecretVault = { ...keyring, backend: async () => ({ kind: 'unavailable', protected: false, detail: 'test' }) };

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function store(vms: Map<number, KnownVm> = new Map(), dataDir?: string) {
  return createProxyCredentialStore({ vault: keyring, dataDir, logger, tokenStorage: () => 'keyring', vm: (_c, vmid) => vms.get(vmid) });
}

describe('the proxy credential store', () => {
  it('credentials kept for a session only: after a restart a new VM gets new ones, an existing one is refused in words', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-creds-'));
    dirs.push(dataDir);
    const session = () =>
      createProxyCredentialStore({ vault: unprotected, dataDir, logger, tokenStorage: () => 'session', vm: () => undefined });
    const text = presets[1]!.render(8888, { credentials: true });
    const first = await session().fill('c1', 'uid-1', 'p1', text, true);
    // The next start: the session's secret is gone with it.
    const restarted = session();
    await expect(restarted.fill('c1', 'uid-1', 'p1', text)).rejects.toThrow(/kept for a session only/);
    const again = await restarted.fill('c1', 'uid-1', 'p1', text, true);
    expect(again).not.toContain(CREDENTIAL_PLACEHOLDERS.password);
    expect(again).not.toBe(first);
  });

  it('leaves a user-data without placeholders as it is, and keeps nothing for it', async () => {
    const s = store();
    const text = presets[0]!.render(3128);
    expect(wantsCredentials(text)).toBe(false);
    expect(await s.fill('c1', 'uid-1', 'p1', text)).toBe(text);
    s.noteVmid('c1', 'uid-1', 101);
    expect(await s.credentialsOf('c1', 101)).toBeUndefined();
  });

  it('fills every placeholder of each preset, makes the credentials once, and answers them for that VM only', async () => {
    const vms = new Map<number, KnownVm>();
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-creds-'));
    dirs.push(dataDir);
    const s = store(vms, dataDir);
    const filled = await Promise.all(presets.map((p, i) => s.fill('c1', `uid-${i}`, `p${i}`, p.render(p.defaultPort, { credentials: true }))));
    for (const text of filled) for (const placeholder of Object.values(CREDENTIAL_PLACEHOLDERS)) expect(text).not.toContain(placeholder);
    // A resume builds the same seed: the same password and hashes.
    expect(await s.fill('c1', 'uid-0', 'p0', presets[0]!.render(3128, { credentials: true }))).toBe(filled[0]);
    vms.set(101, { uid: 'uid-1', name: 'p1' });
    const creds = await s.credentialsOf('c1', 101);
    expect(creds).toMatchObject({ username: 'egress' });
    expect(creds!.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(filled[1]).toContain(`BasicAuth egress ${creds!.password}`);
    // The seed of Squid carries the hash, never the password.
    const squidCreds = (vms.set(100, { uid: 'uid-0', name: 'p0' }), await s.credentialsOf('c1', 100))!;
    expect(filled[0]).not.toContain(squidCreds.password);
    expect(filled[0]).toMatch(/egress:\$apr1\$/);
    // The file in the data folder holds no clear password.
    const file = readFileSync(join(dataDir, 'proxy-credentials.json'), 'utf8');
    expect(file).not.toContain(creds!.password);
    expect(file).not.toContain(squidCreds.password);
    // Another VM on the same VMID (a deleted proxy's number reused) gets nothing.
    vms.set(101, { uid: 'someone-else', name: 'p1' });
    expect(await s.credentialsOf('c1', 101)).toBeUndefined();
    // Read again after a restart, from the sealed file.
    vms.set(101, { uid: 'uid-1', name: 'p1' });
    expect(await store(vms, dataDir).credentialsOf('c1', 101)).toEqual(creds);
    s.forget('c1', 'uid-1');
    expect(await s.credentialsOf('c1', 101)).toBeUndefined();
    expect(await store(vms, dataDir).credentialsOf('c1', 101)).toBeUndefined();
  });

  it('a rotate keeps the new set pending beside the current, across a restart, until its commit forgets the old', async () => {
    const vms = new Map<number, KnownVm>([[101, { uid: 'uid-1', name: 'p1' }]]);
    const dataDir = mkdtempSync(join(tmpdir(), 'egress-creds-'));
    dirs.push(dataDir);
    const s = store(vms, dataDir);
    const text = presets[1]!.render(8888, { credentials: true });
    await expect(s.rotateBegin('c1', 'uid-1', 'p1')).rejects.toThrow(/keeps no username and password for p1/);
    await s.fill('c1', 'uid-1', 'p1', text);
    const old = (await s.credentialsOf('c1', 101))!;
    await s.rotateBegin('c1', 'uid-1', 'p1');
    const pending = (await s.pendingOf('c1', 'uid-1'))!;
    expect(pending.password).not.toBe(old.password);
    // Until the commit the checks still get the current set; the rotate's seed gets the pending one.
    expect(await s.credentialsOf('c1', 101)).toEqual(old);
    const seed = await s.fillPending('c1', 'uid-1', 'p1', text);
    expect(seed).toContain(`BasicAuth egress ${pending.password}`);
    // A second ask (or a Resume after a restart) keeps the same pending set: the same seed bytes.
    await s.rotateBegin('c1', 'uid-1', 'p1');
    const restarted = store(vms, dataDir);
    await restarted.rotateBegin('c1', 'uid-1', 'p1');
    expect(await restarted.fillPending('c1', 'uid-1', 'p1', text)).toBe(seed);
    expect(readFileSync(join(dataDir, 'proxy-credentials.json'), 'utf8')).not.toContain(pending.password);
    await restarted.rotateCommit('c1', 'uid-1');
    expect(await restarted.credentialsOf('c1', 101)).toEqual(pending);
    expect(await restarted.pendingOf('c1', 'uid-1')).toBeUndefined();
    await restarted.rotateCommit('c1', 'uid-1');
    expect(await store(vms, dataDir).credentialsOf('c1', 101)).toEqual(pending);
  });
});
