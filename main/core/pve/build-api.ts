/**
 * The endpoints the template builder needs on top of PveApi (issue 14): a
 * separate seam so PveApi's other implementers (fakes, stubs) need not grow.
 * createPveClient implements it too (client.ts spreads templateBuildMethods).
 *
 * Every parameter and permission below is read from the official API schema
 * (../shared/pve-api/apidata.js, PVE 9.1.3); the versions that first accept
 * them are in main/core/templates/capabilities.ts.
 */
import { z } from 'zod';
import type { CallOptions, Upid } from './api';
import { pveInteger } from './scalars';
import { exchangeOptions, type Exchange } from './transport';
import { UpidSchema } from './schemas';

/** POST /nodes/{node}/storage/{storage}/download-url; `content: import` from pve-storage 8.3.6 (PVE 8.4) for .qcow2/.raw/.vmdk. */
export interface DownloadUrlParams {
  url: string;
  /** Normalised by Proxmox; must match `[a-zA-Z0-9-.+=_]+\.(ova|qcow2|raw|vmdk)` for `content=import`. */
  filename: string;
  content: 'import' | 'iso' | 'vztmpl';
  /** Both or neither (`requires` in the schema). */
  checksum?: string;
  'checksum-algorithm'?: 'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
  /** Default 1. */
  'verify-certificates'?: 0 | 1;
}

/** GET /cluster/nextid answers the VMID as a string (`"100"`) or a number. */
export const NextIdSchema = pveInteger;

export interface TemplateBuildApi {
  /** POST /nodes/{node}/storage/{storage}/download-url: a `download` task whose id is the file name. */
  downloadUrl(node: string, storage: string, params: DownloadUrlParams, opts?: CallOptions): Promise<Upid>;
  /** POST /nodes/{node}/qemu (with `vmid`): a `qmcreate` task. */
  createVm(node: string, params: Record<string, string | number>, opts?: CallOptions): Promise<Upid>;
  /** POST /nodes/{node}/qemu/{vmid}/template: a `qmtemplate` task. */
  convertToTemplate(node: string, vmid: number, opts?: CallOptions): Promise<Upid>;
  /** GET /cluster/nextid[?vmid=]: the next free VMID, or (with vmid) that VMID if free; a taken one is a 400. */
  nextVmid(vmid?: number, opts?: CallOptions): Promise<number>;
}

type Call = <Sch extends z.ZodType>(schema: Sch, ex: Exchange) => Promise<z.output<Sch>>;

export function templateBuildMethods(call: Call): TemplateBuildApi {
  return {
    downloadUrl: (node, storage, p, o) => {
      const form: Record<string, string | number> = { url: p.url, filename: p.filename, content: p.content };
      if (p.checksum !== undefined && p['checksum-algorithm'] !== undefined) {
        form.checksum = p.checksum;
        form['checksum-algorithm'] = p['checksum-algorithm'];
      }
      if (p['verify-certificates'] !== undefined) form['verify-certificates'] = p['verify-certificates'];
      return call(UpidSchema, {
        method: 'POST',
        template: '/nodes/{node}/storage/{storage}/download-url',
        params: { node, storage },
        form,
        ...exchangeOptions(o),
      });
    },
    createVm: (node, params, o) =>
      call(UpidSchema, { method: 'POST', template: '/nodes/{node}/qemu', params: { node }, form: params, ...exchangeOptions(o) }),
    convertToTemplate: (node, vmid, o) =>
      call(UpidSchema, { method: 'POST', template: '/nodes/{node}/qemu/{vmid}/template', params: { node, vmid }, ...exchangeOptions(o) }),
    nextVmid: (vmid, o) => call(NextIdSchema, { method: 'GET', template: '/cluster/nextid', query: { vmid }, ...exchangeOptions(o) }),
  };
}
