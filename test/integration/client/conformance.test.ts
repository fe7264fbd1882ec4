/**
 * Every request the client can make, checked against the official Proxmox
 * VE API schema (../shared/pve-api/apidata.js, AGPL, read at test time and
 * never copied): the method and path exist, the token may call it, every
 * query or form key is a known parameter, required ones are present, and
 * types, enums and patterns hold.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';
import type { RecordedRequest } from '../../support/replay-server';

const schemaPath = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'pve-api', 'apidata.js');
const schemaMissing = !existsSync(schemaPath);
if (schemaMissing) console.log(`skipped: the Proxmox API schema is not at ${schemaPath}`);

interface Param {
  type?: string;
  optional?: number;
  enum?: string[];
  pattern?: string;
}
interface Operation {
  allowtoken?: number;
  parameters?: { properties?: Record<string, Param> };
}
interface SchemaNode {
  path: string;
  info?: Record<string, Operation>;
  children?: SchemaNode[];
}

function loadSchema(): SchemaNode[] {
  const text = readFileSync(schemaPath, 'utf8');
  return JSON.parse(text.replace(/^\s*const apiSchema\s*=\s*/, '').replace(/;\s*$/, '')) as SchemaNode[];
}

function findNode(nodes: SchemaNode[], segments: string[]): SchemaNode | undefined {
  for (const n of nodes) {
    const tpl = n.path.split('/').slice(1);
    const fits = tpl.length <= segments.length && tpl.every((t, i) => t.startsWith('{') || t === segments[i]);
    if (!fits) continue;
    if (tpl.length === segments.length) return n;
    const deeper = findNode(n.children ?? [], segments);
    if (deeper) return deeper;
  }
  return undefined;
}

function sentParams(req: RecordedRequest): Record<string, string> {
  const params: Record<string, string> = Object.fromEntries(req.query);
  const type = String(req.headers['content-type'] ?? '');
  if (type.startsWith('application/x-www-form-urlencoded'))
    Object.assign(params, Object.fromEntries(new URLSearchParams(req.body.toString('utf8'))));
  if (type.startsWith('multipart/form-data')) {
    const text = req.body.toString('latin1');
    for (const m of text.matchAll(/name="([^"]+)"(?:; filename="([^"]+)")?\r\n(?:[^\r\n]+\r\n)*\r\n/g)) {
      params[m[1]!] = m[2] ?? text.slice(m.index + m[0].length).split('\r\n')[0]!;
    }
  }
  return params;
}

function knownParam(props: Record<string, Param>, key: string): Param | undefined {
  if (props[key]) return props[key];
  const indexed = Object.entries(props).find(([k]) => k.endsWith('[n]') && new RegExp(`^${k.slice(0, -3)}\\d+$`).test(key));
  return indexed?.[1];
}

/** Problems with one request, in words; empty when it conforms. */
function check(schema: SchemaNode[], req: RecordedRequest): string[] {
  const segments = req.pathname
    .replace(/^\/api2\/json/, '')
    .split('/')
    .slice(1)
    .map(decodeURIComponent);
  const node = findNode(schema, segments);
  const op = node?.info?.[req.method];
  if (!node || !op) return [`${req.method} ${req.pathname}: no such operation`];
  const problems: string[] = [];
  if (op.allowtoken !== 1) problems.push('API tokens may not call it');
  const pathKeys = new Set(node.path.match(/\{([^}]+)\}/g)?.map((k) => k.slice(1, -1)));
  const props = op.parameters?.properties ?? {};
  const sent = sentParams(req);
  for (const [key, value] of Object.entries(sent)) {
    const p = knownParam(props, key);
    if (!p) {
      problems.push(`unknown parameter ${key}`);
      continue;
    }
    if (p.type === 'integer' && !/^-?\d+$/.test(value)) problems.push(`${key} is not an integer: ${value}`);
    if (p.type === 'boolean' && !/^[01]$/.test(value)) problems.push(`${key} is not 0/1: ${value}`);
    if (p.enum && !p.enum.includes(value)) problems.push(`${key}=${value} is not one of ${p.enum.join(',')}`);
    if (p.pattern) {
      let re: RegExp | undefined;
      try {
        re = new RegExp(`^(?:${p.pattern})$`);
      } catch {
        re = undefined; // a Perl-only pattern: not checkable here
      }
      if (re && !re.test(value)) problems.push(`${key}=${value} does not match ${p.pattern}`);
    }
  }
  for (const [key, p] of Object.entries(props)) {
    if (!p.optional && !pathKeys.has(key) && !(key in sent)) problems.push(`required parameter ${key} missing`);
  }
  return problems.map((p) => `${req.method} ${node.path}: ${p}`);
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.server.route('GET', /.*/, { status: 200, reason: 'OK', body: '{"data":null}' });
  for (const m of ['POST', 'PUT', 'DELETE']) h.server.route(m, /.*/, { status: 200, reason: 'OK', body: '{"data":null}' });
});
afterAll(() => h?.close());

describe.skipIf(schemaMissing)('requests conform to the Proxmox VE API schema', () => {
  it('every client method', async () => {
    const upid = 'UPID:pv1-1:0010F9DC:02801DA1:6AB37871:qmclone:9001:proxy-operator@pve!operator:';
    const c = h.client;
    const calls: (() => Promise<unknown>)[] = [
      () => c.version(),
      () => c.nodes(),
      () => c.clusterStatus(),
      () => c.clusterResources(),
      () => c.clusterResources('vm'),
      () => c.nodeStatus('pv1-1'),
      () => c.storageList('pv1-1'),
      () => c.storageStatus('pv1-1', 'proxy-seeds'),
      () => c.storageContent('pv1-1', 'proxy-seeds', 'iso'),
      () => c.uploadIso('pv1-1', 'proxy-seeds', 'proxy-a-seed.iso', new Uint8Array(16)),
      () => c.deleteVolume('pv1-1', 'proxy-seeds', 'proxy-seeds:iso/proxy-a-seed.iso'),
      () => c.vmConfig('pv1-1', 199999),
      () =>
        c.setVmConfig('pv1-1', 199999, {
          cores: 2,
          memory: 2048,
          ide2: 'proxy-seeds:iso/a.iso,media=cdrom',
          tags: 'proxy_operator',
          net0: 'virtio,bridge=vmbr0,tag=4',
          agent: 1,
        }),
      () => c.clone('pv1-1', 9001, { newid: 199999, name: 'proxy-a', description: 'x\ny', full: 1, storage: 'local-lvm', target: 'pv1-1' }),
      () => c.resize('pv1-1', 199999, 'scsi0', '8G'),
      () => c.start('pv1-1', 199999),
      () => c.stop('pv1-1', 199999),
      () => c.vmStatus('pv1-1', 199999),
      () => c.destroy('pv1-1', 199999),
      () => c.taskStatus('pv1-1', upid),
      () => c.taskLog('pv1-1', upid, { start: 0, limit: 100 }),
      () => c.agentNetworkInterfaces('pv1-1', 199999),
      () => c.network('pv1-1', 'bridge'),
      () => c.permissions('/storage/proxy-seeds'),
    ];
    for (const call of calls) await call().catch(() => undefined);
    expect(h.server.requests).toHaveLength(calls.length);
    const schema = loadSchema();
    const problems = h.server.requests.flatMap((r) => check(schema, r));
    expect(problems).toEqual([]);
  });

  it('the checker itself finds a bad request (so an empty result means something)', () => {
    const bad: RecordedRequest = {
      method: 'POST',
      url: '/api2/json/nodes/pv1-1/qemu/100/clone?bogus=1',
      pathname: '/api2/json/nodes/pv1-1/qemu/100/clone',
      query: new URLSearchParams('bogus=1'),
      headers: {},
      body: Buffer.alloc(0),
    };
    const problems = check(loadSchema(), bad);
    expect(problems).toEqual(
      expect.arrayContaining([expect.stringContaining('unknown parameter bogus'), expect.stringContaining('newid missing')]),
    );
  });
});
