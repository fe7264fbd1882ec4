/**
 * Issue 22: how big an answer from Proxmox may be, per route, and the read
 * that stops there. Without a bound an endless answer (a proxy or a broken
 * node streaming `/cluster/resources` for the whole request timeout) was
 * buffered whole: +495 MiB at a 12 s timeout at 25 MB/s, +900 MiB at 30 s.
 * With it the read stops at the bound, the connection is destroyed, and the
 * call fails with AnswerTooLargeError (failures.ts), which says so in words.
 *
 * Each bound is many times the largest answer a real cluster sends on that
 * route (the reason is beside it), so only an answer that is not Proxmox's
 * meets it.
 */
import type { Readable } from 'node:stream';
import { AnswerTooLargeError, type CallSite } from './failures';

const MiB = 1024 * 1024;

export interface AnswerBound {
  bytes: number;
  why: string;
}

/** Every route not named below: one object or a short list (version, status, a config, storages, bridges, a UPID). */
export const DEFAULT_ANSWER_BOUND: AnswerBound = {
  bytes: 8 * MiB,
  why: 'a single object or a short list; a VM config, the largest, is a few KiB (its description is capped at 8 KiB by Proxmox)',
};

/** By route template (transport.ts Exchange.template). */
export const ANSWER_BOUNDS: Readonly<Record<string, AnswerBound>> = {
  '/cluster/resources': {
    bytes: 32 * MiB,
    why: 'a VM entry is 260-600 bytes (the capture: 259-270 for a stopped VM; a running one with tags, pool, HA and 9.x pressures ~600), so 5,000 VMs are about 3 MB with their nodes and storages: ten times that',
  },
  '/nodes/{node}/storage/{storage}/content': {
    bytes: 32 * MiB,
    why: 'a backup storage may hold tens of thousands of volumes at ~300 bytes each (50,000 are 15 MB)',
  },
  '/access/permissions': {
    bytes: 32 * MiB,
    why: 'a token with ACLs on every VM of a 5,000-VM cluster lists 5,000 paths with their privileges (~1 MB)',
  },
  '/nodes/{node}/tasks/{upid}/log': {
    bytes: 16 * MiB,
    why: 'a page is at most 1,000 lines (the Tasks view asks for up to 1,000, the follower 500); 16 KiB a line is far beyond a progress or error line',
  },
  '/nodes/{node}/tasks': {
    bytes: 8 * MiB,
    why: 'the watcher asks for at most 500 entries (node-loop.ts LISTING_LIMIT) at ~300 bytes each: 150 KB',
  },
  '/nodes/{node}/rrddata': {
    bytes: 8 * MiB,
    why: 'the largest RRD answer is 1,440 rows (9.x, day to year): 188 KiB measured (docs/performance.md, rrd)',
  },
  '/nodes/{node}/qemu/{vmid}/rrddata': {
    bytes: 8 * MiB,
    why: 'the largest RRD answer is 1,440 rows (9.x, day to year): 188 KiB measured (docs/performance.md, rrd)',
  },
};

export function answerBoundOf(template: string): AnswerBound {
  return ANSWER_BOUNDS[template] ?? DEFAULT_ANSWER_BOUND;
}

/**
 * The body as text, read up to `limit` bytes. A declared Content-Length over it is refused before any byte is read;
 * an answer that grows past it is refused at the chunk that crosses it. Either way the stream is destroyed, which
 * makes undici drop the connection, so nothing more is read from the socket.
 */
export async function readBounded(
  body: Readable,
  contentLength: string | string[] | undefined,
  limit: number,
  call: CallSite,
): Promise<string> {
  const declared = Number(Array.isArray(contentLength) ? contentLength[0] : contentLength);
  if (Number.isFinite(declared) && declared > limit) {
    body.destroy();
    throw new AnswerTooLargeError(call, limit, declared);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new AnswerTooLargeError(call, limit, size);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
