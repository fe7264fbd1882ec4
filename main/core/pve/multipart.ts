/**
 * The ISO upload body (F12): a `content=iso` field, then the file part
 * named `filename` carrying the target name. Rendered as framing around the
 * caller's bytes, so the exact Content-Length is known up front and the
 * bytes are streamed in chunks without being copied into one buffer.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { InvalidRequestError } from './failures';

const CHUNK = 64 * 1024;
// Proxmox takes the volume name from this; anything else could break the part header.
const safeFileName = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

export interface MultipartBody {
  contentType: string;
  contentLength: number;
  stream: Readable;
}

export function isoUploadBody(filename: string, bytes: Uint8Array): MultipartBody {
  if (!safeFileName.test(filename)) {
    throw new InvalidRequestError(`Refusing to upload "${filename.slice(0, 80)}": use letters, digits, '.', '_', '+' and '-' only.`);
  }
  const boundary = `----egress-desk-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n\r\niso\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="filename"; filename="${filename}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  function* chunks(): Generator<Uint8Array> {
    yield head;
    for (let i = 0; i < bytes.byteLength; i += CHUNK) yield bytes.subarray(i, i + CHUNK);
    yield tail;
  }
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    contentLength: head.byteLength + bytes.byteLength + tail.byteLength,
    stream: Readable.from(chunks(), { objectMode: false }),
  };
}
