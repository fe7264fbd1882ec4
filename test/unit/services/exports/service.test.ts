/**
 * Issue 24 §3: what an export holds (main/services/exports/service.ts): the selection or a tag's proxies, a foreign
 * VM only when selected, a proxy without an address named as left out, and a password only when asked for after
 * the warning was confirmed (a sentinel password proves it is nowhere else).
 */
import { describe, expect, it } from 'vitest';
import type { InventorySnapshot, VmRow } from '../../../../shared/channels/inventory';
import { defaultExportOptions, type ExportInput } from '../../../../shared/channels/exports';
import { defaultSettings, type AppSettings } from '../../../../shared/domain/profile';
import { createExportService } from '../../../../main/services/exports/service';
import type { FileSaver } from '../../../../main/ports/file-saver';

const SENTINEL = 'SENTINEL-proxy-password-7f3a';

const vm = (over: Partial<VmRow>): VmRow => ({
  clusterId: 'c1',
  vmid: 101,
  node: 'pve1',
  name: 'web-1',
  state: 'running',
  status: 'running',
  address: '10.0.0.5',
  owner: 'marked',
  tags: ['egress'],
  ...over,
});

const snapshot: InventorySnapshot = {
  revision: 1,
  clusters: [
    {
      clusterId: 'c1',
      name: 'lab',
      status: { state: 'ok', failures: 0, intervalMs: 5000 },
      nodes: [],
      vms: [
        vm({}),
        vm({ vmid: 102, name: 'socks-1', address: '10.0.0.6' }),
        vm({ vmid: 103, name: 'looks-like-one', owner: 'foreign', address: '10.0.0.7' }),
        vm({ vmid: 104, name: 'booting', address: undefined }),
        vm({ vmid: 105, name: 'liar', address: '10.0.0.8"; DIRECT' }),
        vm({ vmid: 106, name: 'other', tags: ['other'], address: '10.0.0.9' }),
      ],
    },
  ],
};

function service(settings: Partial<AppSettings> = {}, saved: { name: string; text: string }[] = []) {
  const saver: FileSaver = {
    save: async (name, text) => {
      saved.push({ name, text });
      return `/tmp/${name}`;
    },
  };
  return createExportService({
    inventory: { snapshot: () => snapshot },
    endpointOf: (_c, vmid) => (vmid === 102 ? { protocol: 'socks5', port: 1080 } : { protocol: 'http', port: 3128 }),
    credentials: { credentialsOf: async (_c, vmid) => (vmid === 101 ? { username: 'alice', password: SENTINEL } : undefined) },
    settings: () => ({ ...defaultSettings, ...settings }),
    saver,
  });
}

const input = (over: Partial<ExportInput> = {}): ExportInput => ({
  scope: { kind: 'tag', tag: 'egress' },
  format: 'list',
  options: defaultExportOptions,
  ...over,
});

describe('the export service', () => {
  it('exports the proxies with a tag, never a foreign VM, and names what it left out and why', async () => {
    const out = await service().render(input());
    expect(out.text).toBe('10.0.0.5:3128\n10.0.0.6:1080\n');
    expect(out.included).toEqual(['web-1', 'socks-1']);
    expect(out.leftOut).toEqual([
      { name: 'looks-like-one', reason: 'not a proxy (no mark): select it to export it' },
      { name: 'booting', reason: 'no address yet (the guest agent has not reported one)' },
      { name: 'liar', reason: 'its reported address is not an IP address' },
    ]);
  });

  it('exports a foreign VM the user selected, in the order selected', async () => {
    const out = await service().render(
      input({
        scope: {
          kind: 'selection',
          proxies: [
            { clusterId: 'c1', vmid: 103 },
            { clusterId: 'c1', vmid: 101 },
          ],
        },
      }),
    );
    expect(out.text).toBe('10.0.0.7:3128\n10.0.0.5:3128\n');
  });

  it('says in words when nothing can be exported', async () => {
    await expect(
      service().render(input({ scope: { kind: 'selection', proxies: [{ clusterId: 'c1', vmid: 104 }] } })),
    ).rejects.toMatchObject({
      kind: 'not-found',
      message: expect.stringContaining('booting: no address yet'),
    });
  });

  it('leaves the password out unless asked, and refuses to put it in before the warning is confirmed', async () => {
    for (const format of ['list', 'json', 'csv', 'pac', 'foxyproxy', 'switchyomega', 'proxychains', 'shell'] as const) {
      const out = await service({ exportCredentialsAcknowledged: true }).render(input({ format }));
      expect(JSON.stringify(out)).not.toContain(SENTINEL);
      expect(out.withCredentials).toBe(false);
    }
    await expect(service().render(input({ options: { ...defaultExportOptions, includeCredentials: true } }))).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'includeCredentials',
    });
  });

  it('puts the password in when asked after the warning, and says which proxies have none', async () => {
    const s = service({ exportCredentialsAcknowledged: true });
    const out = await s.render(input({ options: { ...defaultExportOptions, includeCredentials: true } }));
    expect(out.text).toBe(`10.0.0.5:3128:alice:${SENTINEL}\n10.0.0.6:1080\n`);
    expect(out.withCredentials).toBe(true);
  });

  it('saves the same text through the saver, under the format’s file name', async () => {
    const saved: { name: string; text: string }[] = [];
    const answer = await service({}, saved).save(input({ format: 'pac' }));
    expect(answer).toEqual({ saved: true, path: '/tmp/proxy.pac' });
    expect(saved[0]!.name).toBe('proxy.pac');
    expect(saved[0]!.text).toContain('PROXY 10.0.0.5:3128; SOCKS5 10.0.0.6:1080; DIRECT');
  });
});
