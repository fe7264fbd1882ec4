/**
 * The seed's vendor-data: the guest agent script, the configured document,
 * or both as a MIME multipart so cloud-init handles each part by its own
 * type (the operator's `nocloud.BuildVendorData` rules).
 */
import { createHash } from 'node:crypto';
import { GUEST_AGENT_SCRIPT } from './guest-agent-script';

/**
 * - agent off: the configured document as is (possibly empty);
 * - agent on, nothing configured (blank counts as nothing): the script alone;
 * - agent on and a document configured: a multipart/mixed of the document
 *   (text/plain, cloud-init sniffs its real type) then the script.
 */
export function buildVendorData(configured: string, installAgent: boolean): string {
  if (!installAgent) return configured;
  if (configured.trim() === '') return GUEST_AGENT_SCRIPT;
  return multipart([
    { contentType: 'text/plain', body: configured },
    { contentType: 'text/x-shellscript', body: GUEST_AGENT_SCRIPT },
  ]);
}

interface Part {
  contentType: string;
  body: string;
}

/**
 * Framed as Go's mime/multipart writes it. MIME-Version comes first because
 * cloud-init only treats a document as multipart when it finds
 * "mime-version:" within its first 4096 bytes.
 */
function multipart(parts: readonly Part[]): string {
  const boundary = boundaryFor(parts);
  const head = `MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="${boundary}"\r\n\r\n`;
  const body = parts.map((p) => `--${boundary}\r\n${partHeadAndBody(p)}`).join('\r\n');
  return `${head}${body}\r\n--${boundary}--\r\n`;
}

/**
 * An ASCII part travels as is. Any other is base64: cloud-init reads a part
 * with get_payload(decode=True), which turns non-ASCII text without a
 * transfer encoding into Latin-1 bytes and \U escapes, so "café" or an emoji
 * would reach the guest mangled (the Go original has this flaw).
 */
function partHeadAndBody({ contentType, body }: Part): string {
  if (/^[\x00-\x7f]*$/.test(body)) return `Content-Type: ${contentType}\r\n\r\n${body}`;
  const lines =
    Buffer.from(body, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? [];
  return `Content-Type: ${contentType}; charset="utf-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n${lines.join('\r\n')}`;
}

/**
 * Derived from the content instead of random (as Go's is), so the same
 * request always gives the same seed. A boundary must not occur in any
 * part; a hash of the parts occurring inside them is practically
 * impossible, and the loop covers it anyway.
 */
function boundaryFor(parts: readonly Part[]): string {
  const text = parts.map((p) => p.body).join('\0');
  for (let salt = 0; ; salt++) {
    const boundary = createHash('sha256').update(`${salt}\0${text}`).digest('hex').slice(0, 60);
    if (!text.includes(boundary)) return boundary;
  }
}
