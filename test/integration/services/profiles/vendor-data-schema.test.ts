/**
 * Issue 25 item 1 through the app's router: `cloudInit.check` answers the
 * editors' marks (line, column, the schema's words; a warning for a
 * top-level key no module reads; a network-config v2 checked against its
 * own schema), and a profile whose vendor-data is a cloud-config cloud-init
 * refuses is not saved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { composeApp } from '../../../support/compose-app';
import { nodeRuntime } from '../../../../main/app/runtime-info';
import { createMemoryLogger } from '../../../../main/log/logger';
import { openService, plainProfile, tempDir } from './helpers';

const ctx = { signal: new AbortController().signal, transport: 'test' };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function app() {
  const a = composeApp({
    mode: 'browser',
    version: '0',
    runtime: nodeRuntime(),
    logger: createMemoryLogger(),
    dataDir: await tempDir(),
    demo: 'off',
  });
  cleanups.push(() => a.dispose());
  return a;
}

describe("cloud-init's schema through main", () => {
  it('marks a user-data: an error at the line and column of the wrong value with the schema words, a warning for a top-level typo', async () => {
    const a = await app();
    const text = '#cloud-config\npackges: [squid]\nwrite_files:\n  - path: /etc/x\n    permissions: 644\n';
    const answer = await a.router.dispatch('cloudInit.check', { text, kind: 'cloud-config' }, ctx);
    expect(answer.ok).toBe(true);
    const marks = answer.ok ? (answer.value as { line: number; column: number; severity: string; message: string }[]) : [];
    expect(marks.map((m) => [m.line, m.column, m.severity])).toEqual([
      [2, 1, 'warning'],
      [5, 18, 'error'],
    ]);
    expect(marks[0]!.message).toBe('cloud-init has no module that reads “packges”: it will ignore it. Check the spelling.');
    // The schema's own description of write_files' permissions follows the app's words.
    expect(marks[1]!.message).toBe(
      "“write_files.0.permissions” must be text. Optional file permissions to set on “path” represented as an octal string '0###'. Default: “0o644”",
    );
  });

  it('checks a network-config v2, under network: or not', async () => {
    const a = await app();
    for (const [text, line] of [
      ['network:\n  version: 2\n  ethernets:\n    eth0:\n      dhcp4: maybe\n', 5],
      ['version: 2\nethernets:\n  eth0:\n    dhcp4: maybe\n', 4],
    ] as const) {
      const answer = await a.router.dispatch('cloudInit.check', { text, kind: 'network-config' }, ctx);
      const marks = answer.ok ? (answer.value as { line: number; message: string }[]) : [];
      expect(marks.map((m) => m.line)).toEqual([line]);
      expect(marks[0]!.message).toMatch(/dhcp4” must be one of "yes", "no", true, false\. Enable DHCP for IPv4/);
    }
    const fine = await a.router.dispatch(
      'cloudInit.check',
      { text: 'version: 2\nethernets:\n  eth0:\n    dhcp4: true\n', kind: 'network-config' },
      ctx,
    );
    expect(fine).toEqual({ ok: true, value: [] });
  });

  it('a profile whose cloud-config vendor-data cloud-init refuses is not saved, in words naming the line', async () => {
    const { service } = openService(await tempDir());
    await expect(
      service.save({ profile: plainProfile({ vendorData: '#cloud-config\nruncmd: apt-get install -y htop\n' }) }),
    ).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'profile.vendorData',
      message: expect.stringContaining(
        "profile.vendorData: The vendor-data does not match cloud-init's schema at line 2: “runcmd” must be a list.",
      ),
    });
    expect((await service.list()).profiles).toEqual([]);
    // A script and a valid cloud-config are kept.
    await service.save({ profile: plainProfile({ name: 'Script', vendorData: '#!/bin/sh\necho hi\n' }), secret: 'some-secret-value' });
    await service.save({
      profile: plainProfile({ name: 'Config', vendorData: '#cloud-config\nruncmd: [[apt-get, install, -y, htop]]\n' }),
      secret: 'some-secret-value',
    });
    expect((await service.list()).profiles.map((p) => p.name).sort()).toEqual(['Config', 'Script']);
  });
});
