/**
 * The Proxmox VE API client: PveApi over HTTPS (undici, HTTP/1.1, a
 * keep-alive pool). Each method names its endpoint and its schema; the
 * transport does the rest.
 */
import type { z } from 'zod';
import type { PveApi } from './api';
import { readData } from './answer';
import { AgentRefusedError, type CallSite } from './failures';
import { templateBuildMethods, type TemplateBuildApi } from './build-api';
import { isoUploadBody } from './multipart';
import { rrdMethods, type RrdApi } from './rrd-api';
import { snapshotMethods, type SnapshotApi } from './snapshot-api';
import { fillPath } from './path';
import * as S from './schemas';
import { createTransport, exchangeOptions, type Exchange, type Transport, type TransportOptions } from './transport';

export type PveClientOptions = TransportOptions;
export type PveClient = PveApi &
  TemplateBuildApi &
  RrdApi &
  SnapshotApi & {
    /** The most requests that were in flight at once, per node (the per-node limit holds them to maxRequestsPerNode). */
    peakRequestsPerNode(): Record<string, number>;
    /** Per node, requests that waited for the pace (pace.ts); GETs that shared an identical one (single-flight.ts). */
    paceStats(): ReturnType<Transport['paceStats']>;
    /** Always there on the real client (optional on PveApi for fakes): see api.ts. */
    apiNode(opts?: { signal?: AbortSignal }): Promise<string | undefined>;
    beginOperation(): () => void;
    close(): Promise<void>;
  };

export function createPveClient(options: PveClientOptions): PveClient {
  const transport = createTransport(options);

  let learnedApiNode: Promise<string | undefined> | undefined;
  /** The node answering this URL (`local` in /cluster/status), once; a failed look is tried again next time. */
  function apiNode(opts?: { signal?: AbortSignal }): Promise<string | undefined> {
    learnedApiNode ??= call(S.ClusterStatusSchema, { method: 'GET', template: '/cluster/status', signal: opts?.signal }).then(
      (entries) => {
        const node = entries.find((e) => e.type === 'node' && e.local === true)?.name;
        if (node) transport.setApiNode(node);
        return node;
      },
      (err: unknown) => {
        learnedApiNode = undefined;
        throw err;
      },
    );
    return learnedApiNode;
  }

  const siteOf = (ex: Exchange): CallSite => ({ method: ex.method, path: fillPath(ex.template, ex.params) });

  async function call<Sch extends z.ZodType>(schema: Sch, ex: Exchange, whole = false): Promise<z.output<Sch>> {
    const body = await transport.send(ex);
    return readData(schema, body, siteOf(ex), whole);
  }

  const vm = (node: string, vmid: number) => ({ node, vmid });

  return {
    version: (o) => call(S.VersionSchema, { method: 'GET', template: '/version', ...exchangeOptions(o) }),
    nodes: (o) => call(S.NodesSchema, { method: 'GET', template: '/nodes', ...exchangeOptions(o) }),
    clusterStatus: (o) => call(S.ClusterStatusSchema, { method: 'GET', template: '/cluster/status', ...exchangeOptions(o) }),
    clusterResources: (type, o) =>
      call(S.ClusterResourcesSchema, { method: 'GET', template: '/cluster/resources', query: { type }, ...exchangeOptions(o) }),
    nodeStatus: (node, o) =>
      call(S.NodeStatusSchema, { method: 'GET', template: '/nodes/{node}/status', params: { node }, ...exchangeOptions(o) }),
    storageList: (node, o) =>
      call(S.StorageListSchema, { method: 'GET', template: '/nodes/{node}/storage', params: { node }, ...exchangeOptions(o) }),
    storageStatus: (node, storage, o) =>
      call(S.StorageStatusSchema, {
        method: 'GET',
        template: '/nodes/{node}/storage/{storage}/status',
        params: { node, storage },
        ...exchangeOptions(o),
      }),
    storageContent: (node, storage, content, o) =>
      call(S.StorageContentSchema, {
        method: 'GET',
        template: '/nodes/{node}/storage/{storage}/content',
        params: { node, storage },
        query: { content },
        ...exchangeOptions(o),
      }),
    uploadIso: async (node, storage, filename, bytes, o) =>
      call(S.UpidSchema, {
        method: 'POST',
        template: '/nodes/{node}/storage/{storage}/upload',
        params: { node, storage },
        upload: isoUploadBody(filename, bytes),
        ...exchangeOptions(o),
      }),
    deleteVolume: (node, storage, volid, o) =>
      call(S.UpidSchema, {
        method: 'DELETE',
        template: '/nodes/{node}/storage/{storage}/content/{volid}',
        params: { node, storage, volid },
        ...exchangeOptions(o),
      }),
    vmConfig: (node, vmid, o) =>
      call(S.VmConfigSchema, {
        method: 'GET',
        template: '/nodes/{node}/qemu/{vmid}/config',
        params: vm(node, vmid),
        ...exchangeOptions(o),
      }),
    setVmConfig: async (node, vmid, params, o) => {
      // Synchronous: Proxmox answers `{data: null}`; nothing to read.
      await transport.send({
        method: 'PUT',
        template: '/nodes/{node}/qemu/{vmid}/config',
        params: vm(node, vmid),
        form: params,
        ...exchangeOptions(o),
      });
    },
    clone: (node, vmid, p, o) => {
      const form: Record<string, string | number> = { newid: p.newid, name: p.name, description: p.description, full: p.full };
      if (p.storage !== undefined) form.storage = p.storage;
      if (p.target !== undefined) form.target = p.target;
      return call(S.UpidSchema, {
        method: 'POST',
        template: '/nodes/{node}/qemu/{vmid}/clone',
        params: vm(node, vmid),
        form,
        ...exchangeOptions(o),
      });
    },
    migrate: (node, vmid, p, o) =>
      call(S.UpidSchema, {
        method: 'POST',
        template: '/nodes/{node}/qemu/{vmid}/migrate',
        params: vm(node, vmid),
        form: { target: p.target, ...(p.online ? { online: 1 } : {}), ...(p['with-local-disks'] ? { 'with-local-disks': 1 } : {}) },
        ...exchangeOptions(o),
      }),
    migratePrecondition: (node, vmid, target, o) =>
      call(S.MigratePreconditionSchema, {
        method: 'GET',
        template: '/nodes/{node}/qemu/{vmid}/migrate',
        params: vm(node, vmid),
        query: { target },
        ...exchangeOptions(o),
      }),
    resize: (node, vmid, disk, size, o) =>
      call(S.MaybeUpidSchema, {
        method: 'PUT',
        template: '/nodes/{node}/qemu/{vmid}/resize',
        params: vm(node, vmid),
        form: { disk, size },
        ...exchangeOptions(o),
      }),
    start: (node, vmid, o) =>
      call(S.UpidSchema, { method: 'POST', template: '/nodes/{node}/qemu/{vmid}/status/start', params: vm(node, vmid), ...exchangeOptions(o) }),
    stop: (node, vmid, o) =>
      call(S.UpidSchema, { method: 'POST', template: '/nodes/{node}/qemu/{vmid}/status/stop', params: vm(node, vmid), ...exchangeOptions(o) }),
    shutdown: (node, vmid, p, o) => {
      const form: Record<string, number> = {};
      if (p.timeout !== undefined) form.timeout = p.timeout;
      if (p.forceStop !== undefined) form.forceStop = p.forceStop;
      return call(S.UpidSchema, {
        method: 'POST',
        template: '/nodes/{node}/qemu/{vmid}/status/shutdown',
        params: vm(node, vmid),
        form,
        ...exchangeOptions(o),
      });
    },
    reboot: (node, vmid, p, o) =>
      call(S.UpidSchema, {
        method: 'POST',
        template: '/nodes/{node}/qemu/{vmid}/status/reboot',
        params: vm(node, vmid),
        form: p?.timeout !== undefined ? { timeout: p.timeout } : {},
        ...exchangeOptions(o),
      }),
    resume: (node, vmid, o) =>
      call(S.UpidSchema, {
        method: 'POST',
        template: '/nodes/{node}/qemu/{vmid}/status/resume',
        params: vm(node, vmid),
        ...exchangeOptions(o),
      }),
    vmStatus: (node, vmid, o) =>
      call(S.VmStatusSchema, {
        method: 'GET',
        template: '/nodes/{node}/qemu/{vmid}/status/current',
        params: vm(node, vmid),
        ...exchangeOptions(o),
      }),
    destroy: (node, vmid, o) =>
      call(S.UpidSchema, {
        method: 'DELETE',
        template: '/nodes/{node}/qemu/{vmid}',
        params: vm(node, vmid),
        query: { purge: 1, 'destroy-unreferenced-disks': 1 },
        ...exchangeOptions(o),
      }),
    taskStatus: (node, upid, o) =>
      call(S.TaskStatusSchema, { method: 'GET', template: '/nodes/{node}/tasks/{upid}/status', params: { node, upid }, ...exchangeOptions(o) }),
    nodeTasks: (node, q, o) =>
      call(S.TaskListSchema, {
        method: 'GET',
        template: '/nodes/{node}/tasks',
        params: { node },
        query: {
          source: q?.source,
          since: q?.since,
          vmid: q?.vmid,
          typefilter: q?.typefilter,
          userfilter: q?.userfilter,
          limit: q?.limit,
          start: q?.start,
        },
        ...exchangeOptions(o),
      }),
    taskLog: (node, upid, range, o) =>
      call(
        S.TaskLogAnswerSchema,
        {
          method: 'GET',
          template: '/nodes/{node}/tasks/{upid}/log',
          params: { node, upid },
          query: { start: range?.start, limit: range?.limit },
          ...exchangeOptions(o),
        },
        true,
      ),
    stopTask: async (node, upid, o) => {
      // Synchronous: Proxmox answers `{data: null}` once the signal is sent; the task's status tells how it ended.
      await transport.send({ method: 'DELETE', template: '/nodes/{node}/tasks/{upid}', params: { node, upid }, ...exchangeOptions(o) });
    },
    agentNetworkInterfaces: async (node, vmid, o) => {
      const ex: Exchange = {
        method: 'GET',
        template: '/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces',
        params: vm(node, vmid),
        ...exchangeOptions(o),
      };
      const answer = await call(S.AgentNetworkAnswerSchema, ex);
      // A 200 carrying the agent's own error: its reason, not a decoding failure.
      if (answer.refused) throw new AgentRefusedError(answer.agentClass, answer.desc, siteOf(ex));
      return answer.interfaces;
    },
    network: (node, type, o) =>
      call(S.NetworkSchema, { method: 'GET', template: '/nodes/{node}/network', params: { node }, query: { type }, ...exchangeOptions(o) }),
    permissions: (path, o) =>
      call(S.PermissionsSchema, { method: 'GET', template: '/access/permissions', query: { path }, ...exchangeOptions(o) }),
    // Issue 14: the template builder's endpoints (build-api.ts).
    ...templateBuildMethods(call),
    // Issue 15: Proxmox's RRD history (rrd-api.ts).
    ...rrdMethods(call),
    // Issue 25: a VM's snapshots (snapshot-api.ts).
    ...snapshotMethods(call),
    apiNode,
    beginOperation: () => {
      // The pace counts calls that name no node against the node that answers them: learn it at the first create.
      void apiNode().catch(() => undefined);
      return transport.operation();
    },
    peakRequestsPerNode: () => transport.peakRequestsPerNode(),
    paceStats: () => transport.paceStats(),
    close: () => transport.close(),
  };
}
