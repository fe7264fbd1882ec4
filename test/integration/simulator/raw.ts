/**
 * Raw HTTPS requests to the simulator with node:https and its CA: no client
 * code in between, so the tests see exactly what a client would receive.
 */
import { request } from 'node:https';
import type { Simulator, TokenCredentials } from '../../../main/simulator';

export interface RawAnswer {
  status: number;
  reason: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The parsed body's `data`, when the body is JSON. */
  data: unknown;
  json: Record<string, unknown> | undefined;
}

export interface RawOptions {
  /** Token name in `sim.tokens` (default `admin`), explicit credentials, or null for no header. */
  token?: string | TokenCredentials | null;
  form?: Record<string, string | number>;
  query?: Record<string, string | number>;
  /** A raw body with its content type (multipart). */
  body?: { contentType: string; bytes: Uint8Array };
}

export function pve(sim: Simulator, method: string, path: string, options: RawOptions = {}): Promise<RawAnswer> {
  const token = options.token === undefined ? 'admin' : options.token;
  const creds = typeof token === 'string' ? sim.tokens[token]! : token;
  const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)]))}` : '';
  const headers: Record<string, string | number> = {};
  if (creds) headers.Authorization = `PVEAPIToken=${creds.tokenId}=${creds.secret}`;
  let payload: Uint8Array | undefined;
  if (options.form) {
    payload = Buffer.from(new URLSearchParams(Object.entries(options.form).map(([k, v]) => [k, String(v)])).toString());
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (options.body) {
    payload = options.body.bytes;
    headers['Content-Type'] = options.body.contentType;
  }
  if (payload) headers['Content-Length'] = payload.length;
  return new Promise((resolve, reject) => {
    const req = request(`${sim.url}/api2/json${path}${query}`, { method, headers, ca: sim.caPem ?? sim.certPem }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const json = body.length > 0 ? (JSON.parse(body) as Record<string, unknown>) : undefined;
        resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '', headers: res.headers, body, data: json?.data, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Polls a task until it stops; returns its final status. */
export async function waitTask(sim: Simulator, upid: string, token = 'admin'): Promise<Record<string, unknown>> {
  const node = upid.split(':')[1]!;
  for (;;) {
    const a = await pve(sim, 'GET', `/nodes/${node}/tasks/${encodeURIComponent(upid)}/status`, { token });
    const data = a.data as Record<string, unknown>;
    if (data.status === 'stopped') return data;
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Multipart body for the ISO upload, as Proxmox expects it (F12): content=iso and the file part `filename`. */
export async function isoUpload(filename: string, bytes: Uint8Array): Promise<{ contentType: string; bytes: Uint8Array }> {
  const form = new FormData();
  form.append('content', 'iso');
  form.append('filename', new Blob([new Uint8Array(bytes)]), filename);
  const res = new Response(form);
  return { contentType: res.headers.get('content-type')!, bytes: new Uint8Array(await res.arrayBuffer()) };
}
