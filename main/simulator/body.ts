/**
 * Request bodies as pveproxy reads them: form-encoded, JSON, or multipart
 * (the ISO upload, F12). Multipart is parsed by undici's FormData through
 * the standard Response, not by hand.
 */
import type { IncomingMessage } from 'node:http';
import type { UploadedFile } from './context';

export interface ParsedBody {
  fields: Record<string, string>;
  file?: UploadedFile;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function parseBody(req: IncomingMessage): Promise<ParsedBody> {
  const type = req.headers['content-type'] ?? '';
  const raw = await readAll(req);
  if (raw.length === 0) return { fields: {} };
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    const fields: Record<string, string> = {};
    let file: UploadedFile | undefined;
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') fields[key] = value;
      else {
        file = { filename: value.name, bytes: new Uint8Array(await value.arrayBuffer()) };
        fields[key] = value.name;
      }
    }
    return file ? { fields, file } : { fields };
  }
  if (type.startsWith('application/json')) {
    const parsed = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    return { fields: Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)])) };
  }
  return { fields: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
}
