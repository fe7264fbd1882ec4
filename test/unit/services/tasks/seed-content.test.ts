/**
 * Issue 23 items 4 and 5: what the app put into a proxy's seed it keeps (the
 * user-data sealed, never clear text, and the port it listens on), so a
 * migrate does not ask for it and the port is the daemon's, not 3128.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endpointOfUserData } from '../../../../shared/domain/proxy-endpoint';
import { createLogger } from '../../../../main/log/logger';
import { PROXY_RECORDS_FILE, ProxyRecords } from '../../../../main/services/tasks/records/proxy-records';
import { createFileKeySealer } from '../../../../main/services/tasks/sealer';
import { presets } from '../../../../renderer/src/views/create/presets';
import { danteConfig } from '../../../support/real-proxy';

const open = (dir: string) => new ProxyRecords({ dir, logger: createLogger({ sinks: [] }) });

describe('the port a seed makes its proxy listen on', () => {
  it("reads each Create preset's port, at any port the user picked", () => {
    for (const p of presets)
      for (const port of [p.defaultPort, 4321]) expect(endpointOfUserData(p.render(port)), p.id).toEqual({ protocol: p.protocol, port });
  });
  it("reads Dante's SOCKS5 port, and says nothing of user-data without a proxy daemon", () => {
    expect(
      endpointOfUserData(`#cloud-config\nwrite_files:\n  - content: |\n${danteConfig(1085, 'pass').replace(/^/gm, '      ')}`),
    ).toEqual({
      protocol: 'socks5',
      port: 1085,
    });
    expect(endpointOfUserData('#cloud-config\npackages: [nginx]\n')).toBeUndefined();
  });
});

describe("the proxy's record of its seed", () => {
  it('keeps the user-data sealed and the endpoint across a restart; a reconfigure replaces both', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'egress-seed-content-'));
    const sealer = createFileKeySealer(dir);
    const text = presets[1]!.render(8888).replace('Timeout 600', 'Timeout 600 # SENTINEL-pw-4711');
    const records = open(dir);
    records.noteOrigins([
      {
        clusterId: 'c',
        uid: 'u1',
        template: 't',
        machineType: 'small',
        sealedUserData: await sealer.seal(text),
        endpoint: endpointOfUserData(text),
      },
    ]);
    const again = open(dir);
    expect(await sealer.open(again.sealedUserData('c', 'u1')!)).toBe(text);
    expect(again.endpoint('c', 'u1')).toEqual({ protocol: 'http', port: 8888 });
    expect(again.origin('c', 'u1')).toMatchObject({ userDataKept: true });
    expect(readFileSync(join(dir, PROXY_RECORDS_FILE), 'utf8')).not.toContain('SENTINEL-pw-4711');
    // A journal replay of the same create, its user-data dropped since it ran, forgets nothing.
    again.noteOrigins([{ clusterId: 'c', uid: 'u1', template: 't', machineType: 'small' }], false);
    expect(again.sealedUserData('c', 'u1')).toBeDefined();

    const socks = presets[2]!.render(1080);
    again.seedSwapBegins('c', 'u1', 'i-2');
    expect(again.sealedUserData('c', 'u1')).toBeUndefined(); // mid-swap the seed may be either one
    again.seedWritten('c', 'u1', 'i-2', { sealedUserData: await sealer.seal(socks), endpoint: endpointOfUserData(socks) });
    expect(await sealer.open(open(dir).sealedUserData('c', 'u1')!)).toBe(socks);
    expect(open(dir).endpoint('c', 'u1')).toEqual({ protocol: 'socks5', port: 1080 });
  });
});
