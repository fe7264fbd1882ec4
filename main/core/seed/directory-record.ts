/**
 * ECMA-119 9.1 directory records, and their packing into sectors: a record
 * never crosses a sector boundary, the rest of a sector is zero.
 */
import { SECTOR_SIZE, putBothEndian16, putBothEndian32, shortDate } from './iso-fields';

export interface RecordFields {
  /** The file identifier bytes: 0x00 for ".", 0x01 for "..", else "NAME.EXT;1". */
  identifier: Uint8Array;
  extent: number;
  size: number;
  directory: boolean;
  when: Date;
  /** SUSP entries (Rock Ridge), already concatenated. */
  systemUse: Uint8Array;
}

const FLAG_DIRECTORY = 0x02;
const MAX_RECORD_LENGTH = 255;

export function directoryRecord(fields: RecordFields): Uint8Array {
  const idLength = fields.identifier.length;
  // A padding byte follows an even-length identifier, so the system use area starts on an even offset.
  const systemUseOffset = 33 + idLength + (idLength % 2 === 0 ? 1 : 0);
  let length = systemUseOffset + fields.systemUse.length;
  if (length % 2 === 1) length++; // records have even length (9.1.1)
  if (length > MAX_RECORD_LENGTH) throw new RangeError(`directory record of ${length} bytes exceeds ${MAX_RECORD_LENGTH}`);

  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  out[0] = length;
  putBothEndian32(view, 2, fields.extent);
  putBothEndian32(view, 10, fields.size);
  out.set(shortDate(fields.when), 18);
  out[25] = fields.directory ? FLAG_DIRECTORY : 0;
  putBothEndian16(view, 28, 1); // volume sequence number
  out[32] = idLength;
  out.set(fields.identifier, 33);
  out.set(fields.systemUse, systemUseOffset);
  return out;
}

/** Lays records end to end, moving to the next sector when one would straddle a boundary. */
export function packRecords(records: readonly Uint8Array[]): Uint8Array {
  const offsets: number[] = [];
  let cursor = 0;
  for (const record of records) {
    const room = SECTOR_SIZE - (cursor % SECTOR_SIZE);
    if (record.length > room) cursor += room;
    offsets.push(cursor);
    cursor += record.length;
  }
  const out = new Uint8Array(Math.max(1, Math.ceil(cursor / SECTOR_SIZE)) * SECTOR_SIZE);
  records.forEach((record, i) => out.set(record, offsets[i]));
  return out;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
