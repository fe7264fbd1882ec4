import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyApiFailure, TokenFileError } from '../../../main/core/pve/errors';
import { parseTokenLine, readToken } from '../../../main/core/pve/token';
import { redactSecrets } from '../../../main/log/secrets';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'egress-token-unit-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('token line', () => {
  it('splits user@realm!tokenid from the secret, tolerating a trailing newline', () => {
    expect(parseTokenLine('proxy-operator@pve!operator=abc-123\n')).toEqual({ tokenId: 'proxy-operator@pve!operator', secret: 'abc-123' });
  });
  it.each(['', 'proxy-operator@pve=abc', 'proxy-operator!x=abc', 'a@b!c', 'a@b!c=x y', 'a@b!c=x\na@b!d=y'])('refuses %j', (line) => {
    expect(parseTokenLine(line)).toBeUndefined();
  });
});

describe('token file', () => {
  it('missing is transient: the secret may not have landed yet', async () => {
    const err = await readToken({ kind: 'file', path: join(dir, 'absent') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TokenFileError);
    expect(classifyApiFailure('get', err)).toBe('transient');
  });

  it('malformed is permanent, and the message never quotes the content', async () => {
    const path = join(dir, 'bad');
    await writeFile(path, 'not-a-token-but-a-secret-value-77\n');
    const err = (await readToken({ kind: 'file', path }).catch((e: unknown) => e)) as TokenFileError;
    expect(classifyApiFailure('get', err)).toBe('permanent');
    expect(err.message).toContain('<user>@<realm>!<tokenid>=<secret>');
    expect(`${String(err)} ${err.stack} ${JSON.stringify(err)}`).not.toContain('not-a-token-but-a-secret-value-77');
  });

  it('unreadable is permanent', async (ctx) => {
    if (process.getuid?.() === 0) {
      console.log('skipped: running as root, where file modes do not stop reads');
      ctx.skip('running as root, where file modes do not stop reads');
    }
    const path = join(dir, 'locked');
    await writeFile(path, 'a@b!c=locked-secret-1\n');
    await chmod(path, 0o000);
    const err = await readToken({ kind: 'file', path }).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'unreadable' });
    expect(classifyApiFailure('get', err)).toBe('permanent');
  });

  it('is read on every call, so rotation needs no restart, and each secret is registered for redaction', async () => {
    const path = join(dir, 'rotating');
    await writeFile(path, 'a@pve!t=first-secret-111\n');
    expect((await readToken({ kind: 'file', path })).secret).toBe('first-secret-111');
    await writeFile(path, 'a@pve!t=second-secret-222\n');
    expect((await readToken({ kind: 'file', path })).secret).toBe('second-secret-222');
    expect(redactSecrets('x second-secret-222 y')).toBe('x [redacted] y');
  });

  it('an in-memory secret is asked for on every call', async () => {
    let n = 0;
    const source = { kind: 'secret' as const, tokenId: 'a@pve!t', secret: () => `memory-secret-${++n}` };
    await readToken(source);
    expect((await readToken(source)).secret).toBe('memory-secret-2');
  });
});
