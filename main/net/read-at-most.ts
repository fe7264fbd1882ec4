/**
 * Reads at most a bound of an HTTP answer's body from a server the app does
 * not control (a webhook receiver, a URL typed into the connect doctor, a
 * proxy's target): what comes after the bound is never fetched, because the
 * body is destroyed, which closes its connection. Main's memory then stays
 * the bound, whatever the server sends (a 300 MiB answer once grew main by
 * ~880 MiB to keep a 300-character excerpt).
 */

/** An answer's body as undici hands it over (a Readable). */
export interface AnswerBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown;
}

export interface BoundedBody {
  bytes: Buffer;
  /** True when the body went on past the bound: `bytes` is its start only. */
  cut: boolean;
}

export async function readAtMost(body: AnswerBody, maxBytes: number): Promise<BoundedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const piece = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (size + piece.length > maxBytes) {
      chunks.push(piece.subarray(0, maxBytes - size));
      body.destroy();
      return { bytes: Buffer.concat(chunks), cut: true };
    }
    chunks.push(piece);
    size += piece.length;
  }
  return { bytes: Buffer.concat(chunks), cut: false };
}
