/**
 * Issue 26's proof: a test that plays the Kubernetes operator against the
 * hand-off bundle's manifests, on the simulator's state. The operator here is
 * written from proxmox-provider-spec.md alone (entry 2, the ownership check;
 * entry 10, Create's steps and what a retry finds), over raw HTTPS with the
 * operator token (test/integration/simulator/raw.ts), importing nothing of
 * the app's create. The app's part is only what a user does: build the bundle
 * (shared/domain/operator-bundle.ts) and release some proxies (the core's
 * setMarkUid). Released proxies are adopted (no clone, the same VMID, a
 * stopped one gets its seed again); an unreleased one is refused exactly as
 * the spec says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MARK_UID_CODES, type SeedStamp } from '../../../main/core';
import { minimalCluster, proxyVm } from '../../../main/simulator';
import { buildHandoffBundle, type HandoffProfile, type HandoffProxy } from '../../../shared/domain/operator-bundle';
import { OperatorProviderEntry, OperatorProxy } from '../../../shared/domain/operator-schemas';
import { startSimCluster, type SimCluster } from '../../support/sim-cluster';
import { isoUpload, pve, waitTask } from '../simulator/raw';

let h: SimCluster;
let released = new Map<string, SeedStamp | undefined>();
const squid = '#cloud-config\npackages:\n  - squid\n';

beforeAll(async () => {
  const dataset = minimalCluster();
  dataset.nodes[0]!.vms.push(
    proxyVm(150001, 'proxy-a', 'app-uid-a', 'stopped'),
    proxyVm(150002, 'proxy-b', 'app-uid-b', 'running'),
    proxyVm(150003, 'proxy-c', 'app-uid-c', 'stopped'),
  );
  dataset.nodes[0]!.isos = { ...dataset.nodes[0]!.isos, 'proxy-seeds': ['proxy-a-seed.iso', 'proxy-b-seed.iso', 'proxy-c-seed.iso'] };
  h = await startSimCluster({ dataset, tokenName: 'operator', agentDelayMs: 0 });
});
afterAll(async () => h?.close());

// ---- The operator, from the spec ------------------------------------------------------------------------------

interface Cfg {
  proxmox: { nodes: string[]; isoStorage: string; templates: Record<string, { vmid: number }>; machineTypes: Record<string, { cores: number; memoryMiB: number }>; vmidRange?: { min: number; max: number } };
}
class Permanent extends Error {}

function fnv1a64(text: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

/** The spec's mark parser (entry 8): key=value lines, first wins, a missing uid is empty. */
function mark(description: string | undefined) {
  const seen = new Map<string, string>();
  for (const line of (description ?? '').split('\n')) {
    const t = line.replace(/\r$/, '').trim();
    const eq = t.indexOf('=');
    if (eq > 0 && !seen.has(t.slice(0, eq))) seen.set(t.slice(0, eq), t.slice(eq + 1));
  }
  return { managed: seen.get('proxy-operator-managed') === 'true', uid: seen.get('proxy-operator-uid') ?? '' };
}

const api = async (method: string, path: string, opts: Parameters<typeof pve>[3] = {}) => {
  const a = await pve(h.sim, method, path, { token: 'operator', ...opts });
  if (a.status !== 200) throw new Error(`${method} ${path}: ${a.status} ${a.reason}`);
  return a.data;
};
const task = async (upid: unknown) => {
  const s = await waitTask(h.sim, upid as string, 'operator');
  if (s.exitstatus !== 'OK' && !String(s.exitstatus).startsWith('WARNINGS')) throw new Error(`task failed: ${String(s.exitstatus)}`);
};

/** Entry 10: Create for one Proxy (name, UID), blocking until the VM runs; returns the providerID. */
async function operatorCreate(cfg: Cfg, proxy: OperatorProxy, uid: string): Promise<string> {
  const name = proxy.metadata.name;
  const { placement } = proxy.spec;
  // 1. Validate placement.
  const node = placement.zone ?? (cfg.proxmox.nodes.length === 1 ? cfg.proxmox.nodes[0]! : undefined);
  if (!node || !cfg.proxmox.nodes.includes(node)) throw new Permanent(`placement.zone "${placement.zone}" is not in proxmox.nodes`);
  const template = cfg.proxmox.templates[placement.image];
  if (!template) throw new Permanent(`placement.image "${placement.image}" is not in proxmox.templates`);
  const size = cfg.proxmox.machineTypes[placement.machineType];
  if (!size) throw new Permanent(`placement.machineType "${placement.machineType}" is not in proxmox.machineTypes`);
  // 2. One listing, then the name (entry 2 step 1).
  const resources = (await api('GET', '/cluster/resources', { query: { type: 'vm' } })) as { vmid: number; type: string; template?: number; name?: string; node: string; lock?: string }[];
  const byName = resources.filter((r) => r.type === 'qemu' && !r.template && r.name === name);
  if (byName.length > 1) throw new Permanent(`two or more VMs are named ${name}: ${byName.map((r) => r.vmid).join(', ')}`);
  let adopted: { vmid: number; node: string } | undefined;
  const ownership = async (entry: { vmid: number; node: string; lock?: string }) => {
    if (entry.lock === 'suspended') throw new Permanent(`VM ${entry.vmid} is hibernated: resume or destroy it in Proxmox`);
    const config = (await api('GET', `/nodes/${entry.node}/qemu/${entry.vmid}/config`)) as { name?: string; description?: string; lock?: string };
    if (config.name !== name) return 'foreign' as const;
    const m = mark(config.description);
    if (m.managed && (m.uid === uid || m.uid === '')) return 'ours' as const;
    throw new Permanent(`VM ${entry.vmid} is named ${name} but its mark ${m.managed ? `has uid ${m.uid}` : 'is missing'}, not ${uid}: the operator never takes over a VM it did not create`);
  };
  if (byName.length === 1) {
    if ((await ownership(byName[0]!)) === 'ours') adopted = byName[0]!;
  }
  let vmid: number;
  if (adopted) vmid = adopted.vmid;
  else {
    // 3. Allocate from the UID (entry 2 step 2) and 4. clone with the mark in the call.
    const { min, max } = cfg.proxmox.vmidRange ?? { min: 100_000, max: 199_999 };
    vmid = 0;
    for (let attempt = 0; attempt < 32 && vmid === 0; attempt++) {
      const candidate = min + Number((fnv1a64(uid) + BigInt(attempt)) % BigInt(max - min + 1));
      const taken = resources.find((r) => r.vmid === candidate);
      if (!taken) vmid = candidate;
      else if ((await ownership(taken)) === 'ours') vmid = candidate;
    }
    const description = `proxy-operator-managed=true\nproxy-operator-uid=${uid}\nproxy-operator-created-at=2026-12-02T00:00:00Z`;
    const templateNode = resources.find((r) => r.vmid === template.vmid)!.node;
    await task(await api('POST', `/nodes/${templateNode}/qemu/${template.vmid}/clone`, { form: { newid: vmid, name, description, full: 1, target: node } }));
  }
  const where = ((await api('GET', '/cluster/resources', { query: { type: 'vm' } })) as { vmid: number; node: string }[]).find((r) => r.vmid === vmid)!.node;
  // An adopted VM gets one status read: running returns at once, stopped continues at step 5.
  const status = (await api('GET', `/nodes/${where}/qemu/${vmid}/status/current`)) as { status: string };
  if (adopted && status.status === 'running') return `vms/${vmid}/${name}`;
  // 5. The seed, overwriting: user-data is the Proxy's cloudInit byte for byte (the ISO itself is out of scope here).
  await task(await api('POST', `/nodes/${where}/storage/${cfg.proxmox.isoStorage}/upload`, { body: await isoUpload(`${name}-seed.iso`, Buffer.from(proxy.spec.cloudInit.inline)) }));
  // 6. The config write.
  await api('PUT', `/nodes/${where}/qemu/${vmid}/config`, {
    form: { cores: size.cores, memory: size.memoryMiB, agent: '1', tags: 'proxy_operator', ide2: `${cfg.proxmox.isoStorage}:iso/${name}-seed.iso,media=cdrom` },
  });
  // 8. Start and wait.
  await task(await api('POST', `/nodes/${where}/qemu/${vmid}/status/start`));
  return `vms/${vmid}/${name}`;
}

// ---- The app's part: the bundle, and the release ---------------------------------------------------------------

const profile = (): HandoffProfile => ({
  name: 'Sim',
  url: h.sim.url,
  tls: { mode: 'ca', caPem: h.sim.caPem ?? h.sim.certPem },
  token: { secretStorage: 'keyring', tokenId: 'operator@pve!t' },
  nodes: ['pv1-1'],
  isoStorage: 'proxy-seeds',
  templates: { 'debian-13': { vmid: 9001 } },
  machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
});
const record = (name: string, vmid: number): HandoffProxy => ({ name, vmid, node: 'pv1-1', template: 'debian-13', machineType: 'small', port: 3128, protocol: 'http', userData: squid });

describe('the operator takes the hand-off bundle', () => {
  it('adopts the released proxies without a clone, and refuses the unreleased one as entry 2 says', async () => {
    const result = buildHandoffBundle(profile(), [record('proxy-a', 150001), record('proxy-b', 150002), record('proxy-c', 150003)], {
      providerName: 'sim-home',
      includeCredentials: false,
      caPem: h.sim.caPem ?? h.sim.certPem,
    });
    if (!result.ok) throw new Error(result.refusals.join(' | '));
    const files = new Map(result.files.map((f) => [f.path, f.content]));
    const cfg = OperatorProviderEntry.parse((parse(files.get('providers-config-entry.yaml')!) as unknown[])[0]);
    const proxies = ['proxy-a', 'proxy-b', 'proxy-c'].map((n) => OperatorProxy.parse(parse(files.get(`proxies/${n}.yaml`)!)));

    // The user releases two of them; each release answers its seed as listed.
    const seeds = new Map<string, SeedStamp | undefined>();
    for (const [vmid, name, uid] of [[150001, 'proxy-a', 'app-uid-a'], [150002, 'proxy-b', 'app-uid-b']] as const) {
      const r = await h.cluster.provider.setMarkUid(`vms/${vmid}/${name}`, { from: uid, to: '', seedOn: 'proxy-seeds' });
      expect(r).toMatchObject({ written: true, seed: { volid: `proxy-seeds:iso/${name}-seed.iso` } });
      seeds.set(name, r.seed);
    }
    released = seeds;
    expect(String(h.sim.state.vms.get(150001)!.config.description)).toBe('proxy-operator-managed=true\nproxy-operator-uid=\nproxy-operator-created-at=2026-09-23T07:00:00Z');

    const vmsBefore = [...h.sim.state.vms.keys()].sort();
    h.sim.requests.clear();
    const k8sUid = (n: string) => `0f3a0000-0000-4000-8000-${n.padStart(12, '0')}`;
    expect(await operatorCreate(cfg, proxies[0]!, k8sUid('a'))).toBe('vms/150001/proxy-a');
    expect(await operatorCreate(cfg, proxies[1]!, k8sUid('b'))).toBe('vms/150002/proxy-b');
    const refused = await operatorCreate(cfg, proxies[2]!, k8sUid('c')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Permanent);
    expect((refused as Error).message).toMatch(/VM 150003 .*has uid app-uid-c, not 0f3a0000-0000-4000-8000-00000000000c/);

    const sent = h.sim.requests.records.map((r) => `${r.method} ${r.route}`);
    expect(sent.filter((s) => s.includes('/clone'))).toEqual([]); // no clone
    expect([...h.sim.state.vms.keys()].sort()).toEqual(vmsBefore); // the same VMs, the same VMIDs
    // The stopped one gets its seed again (entry 10 step 5), its config and a start; the running one is taken as it is.
    const uploads = h.sim.requests.records.filter((r) => r.route.endsWith('/upload')).map((r) => r.form.filename);
    expect(uploads).toEqual(['proxy-a-seed.iso']);
    const a = (await api('GET', '/nodes/pv1-1/qemu/150001/status/current')) as { status: string };
    expect(a.status).toBe('running');
    // What the spec says of the mark after an adoption: Create does not rewrite the description, so the uid stays empty.
    expect(mark(String(h.sim.state.vms.get(150001)!.config.description)).uid).toBe('');
    // So the app tells the adoption by the seed: an undo of the stopped one, given its release's seed, is refused.
    const undo = await h.cluster.provider.setMarkUid('vms/150001/proxy-a', { from: '', to: 'app-uid-a', releasedSeed: seeds.get('proxy-a') }).catch((e: unknown) => e);
    expect(undo).toMatchObject({ kind: 'permanent', code: MARK_UID_CODES.adopted });
    expect((undo as Error).message).toMatch(/proxy-a \(VM 150001\)'s seed was written again at .*, after its release at .*: the Kubernetes operator has adopted it/);
    expect(mark(String(h.sim.state.vms.get(150001)!.config.description)).uid).toBe('');
  });

  it('an undo while the uid is still empty writes the app’s UID back; a mark that changed meanwhile is not touched', async () => {
    // The running one was adopted without a write (entry 10, step 3): nothing on Proxmox tells it, so its undo goes through.
    await h.cluster.provider.setMarkUid('vms/150002/proxy-b', { from: '', to: 'app-uid-b', releasedSeed: released.get('proxy-b') });
    expect(mark(String(h.sim.state.vms.get(150002)!.config.description)).uid).toBe('app-uid-b');
    // Resumed (the write already done): nothing is written.
    expect(await h.cluster.provider.setMarkUid('vms/150002/proxy-b', { from: '', to: 'app-uid-b' })).toMatchObject({ written: false });
    // Someone else's uid now: refused, nothing written.
    await pve(h.sim, 'PUT', '/nodes/pv1-1/qemu/150003/config', {
      form: { description: 'proxy-operator-managed=true\nproxy-operator-uid=k8s-owner\nproxy-operator-created-at=2026-09-23T07:00:00Z' },
    });
    const err = await h.cluster.provider.setMarkUid('vms/150003/proxy-c', { from: '', to: 'app-uid-c' }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/belongs to uid k8s-owner/);
    expect(mark(String(h.sim.state.vms.get(150003)!.config.description)).uid).toBe('k8s-owner');
  });
});
