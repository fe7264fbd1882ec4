/** Storages: list, status, content, ISO upload (F12) and volume delete (F13). */
import type { Route, RouteRequest } from '../context';
import { diskEntries, diskSize } from '../disks';
import { fieldText, paramError } from '../errors';
import { optInt, optStr, str } from '../params';
import type { StorageDefinition } from '../types';
import { volumeSizeFields } from '../versions';
import { storageUsage } from '../views';
import { deleteImportVolume, importContent } from './import-volumes';
import { storageOn } from './storage-common';

const node = str;
const storage = str;
const auditOrSpace = ['Datastore.Audit', 'Datastore.AllocateSpace'];

const storageOf = (req: RouteRequest): StorageDefinition => storageOn(req, req.path.storage!);

function contentOf(req: RouteRequest, s: StorageDefinition): Record<string, unknown>[] {
  const { state } = req.sim;
  const out: Record<string, unknown>[] = [];
  for (const iso of state.node(req.path.node!)?.isos.get(s.storage)?.values() ?? [])
    out.push({ volid: `${s.storage}:iso/${iso.filename}`, content: 'iso', format: 'iso', size: iso.bytes.length, ctime: iso.ctime });
  for (const vm of state.vms.values()) {
    // A shared storage holds every node's volumes; a local one only this node's (issue 11).
    if (!s.shared && vm.node !== req.path.node) continue;
    for (const [, value] of diskEntries(vm.config)) {
      if (!value.startsWith(`${s.storage}:`)) continue;
      const volid = value.split(',')[0]!;
      const format = volid.endsWith('.qcow2') ? 'qcow2' : 'raw';
      const lvActive = vm.power === 'running' || vm.power === 'paused' || vm.power === 'prelaunch';
      out.push({
        volid,
        content: 'images',
        format,
        ...volumeSizeFields(req.sim.version, s.type, format, lvActive, diskSize(value)),
        vmid: vm.vmid,
      });
    }
  }
  out.push(...importContent(req, s)); // issue 14: `<storage>:import/<file>` (import-volumes.ts)
  return out;
}

/** `proxy-seeds:iso/x.iso` or `iso/x.iso` → the file name, if it names an ISO on this storage. */
function isoFileOf(storageId: string, volume: string): string | undefined {
  const rel = volume.startsWith(`${storageId}:`) ? volume.slice(storageId.length + 1) : volume;
  return rel.startsWith('iso/') ? rel.slice(4) : undefined;
}

export const storageRoutes: Route[] = [
  {
    // storage.cfg (pve-storage API2/Storage/Config.pm index): one entry per storage id, `shared: 1` only when
    // shared, `nodes` only when restricted; filtered by Datastore.Audit or Datastore.AllocateSpace.
    method: 'GET',
    path: '/storage',
    params: { type: optStr },
    handle: ({ sim, params, tokenId }) => {
      const seen = new Map<string, StorageDefinition>();
      for (const n of sim.state.nodes.values()) for (const s of n.storages.values()) if (!seen.has(s.storage)) seen.set(s.storage, s);
      return [...seen.values()]
        .filter((s) => auditOrSpace.some((p) => sim.tokens.holds(tokenId, `/storage/${s.storage}`, p)))
        .filter((s) => !params.type || params.type === s.type)
        .map((s) => {
          const nodes = sim.state.storageNodes(s.storage);
          return {
            storage: s.storage,
            type: s.type,
            content: s.content,
            ...(s.shared ? { shared: 1 } : {}),
            ...(nodes.length < sim.state.nodes.size ? { nodes: nodes.join(',') } : {}),
            digest: '5a8f0d1c2b3e4f60718293a4b5c6d7e8f9a0b1c2',
          };
        });
    },
  },
  {
    method: 'GET',
    path: '/nodes/{node}/storage',
    params: {
      node,
      content: optStr,
      enabled: { type: 'boolean', optional: true },
      format: { type: 'boolean', optional: true },
      storage: optStr,
      target: optStr,
    },
    handle: ({ sim, path, params, tokenId }) =>
      [...(sim.state.node(path.node!)?.storages.values() ?? [])]
        .filter((s) => auditOrSpace.some((p) => sim.tokens.holds(tokenId, `/storage/${s.storage}`, p)))
        .filter((s) => !params.content || params.content.split(',').every((c) => s.content.split(',').includes(c)))
        .filter((s) => !params.storage || params.storage === s.storage)
        .map((s) => ({
          storage: s.storage,
          type: s.type,
          content: s.content,
          shared: s.shared ? 1 : 0,
          active: 1,
          enabled: 1,
          ...storageUsage(s),
          used_fraction: storageUsage(s).used / s.totalBytes,
        })),
  },
  {
    method: 'GET',
    path: '/nodes/{node}/storage/{storage}/status',
    params: { node, storage },
    check: ({ sim, tokenId, path }) => sim.tokens.requireAny(tokenId, `/storage/${path.storage}`, auditOrSpace),
    handle: (req) => {
      const s = storageOf(req);
      return { type: s.type, content: s.content, active: 1, enabled: 1, shared: s.shared ? 1 : 0, ...storageUsage(s) };
    },
  },
  {
    method: 'GET',
    path: '/nodes/{node}/storage/{storage}/content',
    params: { node, storage, content: optStr, vmid: optInt },
    check: ({ sim, tokenId, path }) => sim.tokens.requireAny(tokenId, `/storage/${path.storage}`, auditOrSpace),
    handle: (req) => {
      const all = contentOf(req, storageOf(req));
      return all.filter(
        (v) => (!req.params.content || v.content === req.params.content) && (!req.params.vmid || v.vmid === Number(req.params.vmid)),
      );
    },
  },
  {
    method: 'POST',
    path: '/nodes/{node}/storage/{storage}/upload',
    params: {
      node,
      storage,
      content: { type: 'string', enum: ['iso', 'vztmpl', 'import'] },
      filename: str,
      checksum: optStr,
      'checksum-algorithm': { type: 'string', optional: true, enum: ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] },
      tmpfilename: { type: 'string', optional: true, pattern: /\/var\/tmp\/pveupload-[0-9a-f]+/ },
    },
    check: ({ sim, tokenId, path }) => sim.tokens.requireAll(tokenId, `/storage/${path.storage}`, ['Datastore.AllocateTemplate']),
    handle: (req) => {
      const s = storageOf(req);
      const filename = req.file?.filename ?? req.params.filename!;
      if (!/\.iso$/i.test(filename)) throw paramError({ filename: fieldText('uploadBadName') });
      const bytes = req.file?.bytes ?? new Uint8Array();
      const node = req.path.node!;
      const task = req.sim.tasks.start(node, 'imgcopy', '', { tokenId: req.tokenId }, async (t) => {
        t.log.push(
          `starting file import from: /var/tmp/pveupload-${t.pid.toString(16)}`,
          `target node: ${node}`,
          `target file: /var/lib/vz/template/iso/${filename}`,
          `file size is: ${bytes.length}`,
        );
        // Issue 11: overhead + file size / the storage's bandwidth, shared with other copies (physics.ts); a fixed taskDurations.imgcopy wins.
        const { physics } = req.sim;
        if (physics.fixedMs.imgcopy !== undefined) await req.sim.clock.sleep(physics.fixedMs.imgcopy);
        else {
          if (physics.overheadMs.imgcopy > 0) await req.sim.clock.sleep(physics.overheadMs.imgcopy);
          await physics.flows.transfer(bytes.length, [physics.storageKey(node, s.storage)]);
        }
        req.sim.state.putIso(node, s.storage, filename, bytes); // a second upload overwrites (F12)
        t.log.push(`command 'cp -- /var/tmp/pveupload-${t.pid.toString(16)} /var/lib/vz/template/iso/${filename}' succeeded`);
      });
      return task.upid;
    },
  },
  {
    method: 'DELETE',
    path: '/nodes/{node}/storage/{storage}/content/{volume}',
    params: { node, storage: optStr, volume: str, delay: optInt },
    check: ({ sim, tokenId, path }) => sim.tokens.requireAll(tokenId, `/storage/${path.storage}`, ['Datastore.Allocate']),
    handle: (req) => {
      const s = storageOf(req);
      const node = req.path.node!;
      const file = isoFileOf(s.storage, req.path.volume!);
      const task = req.sim.tasks.start(node, 'imgdel', s.storage, { tokenId: req.tokenId }, async (t) => {
        await req.sim.clock.sleep(req.sim.durations.imgdel);
        // Issue 14: an import volume (import-volumes.ts).
        if (deleteImportVolume(req, s, req.path.volume!)) {
          t.log.push(`Removed volume '${req.path.volume!}'`);
          return;
        }
        // A missing volume still ends OK (F13): Proxmox logs it and carries on.
        if (!file || !req.sim.state.removeIso(node, s.storage, file))
          t.log.push(`disk image '/var/lib/vz/template/iso/${file ?? req.path.volume}' does not exist`);
        t.log.push(`Removed volume '${s.storage}:iso/${file ?? req.path.volume}'`);
      });
      return task.upid;
    },
  },
];
