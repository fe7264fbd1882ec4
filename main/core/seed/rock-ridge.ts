/**
 * Rock Ridge (RRIP 1.09, "RRIP_1991A") over SUSP 1.10: the System Use
 * entries that let Linux see `user-data` instead of the ISO 9660 name
 * `USER_DATA.;1`. Proxmox's own seeds (`genisoimage -R`) carry the same
 * entries, so the guest's kernel and cloud-init see what they always see.
 */
import { putBothEndian32, shortDate } from './iso-fields';

const encoder = new TextEncoder();

function entry(signature: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + body.length);
  out[0] = signature.charCodeAt(0);
  out[1] = signature.charCodeAt(1);
  out[2] = out.length;
  out[3] = 1; // entry version
  out.set(body, 4);
  return out;
}

/** SUSP 5.3: first entry of the root's "." record; says SUSP is in use and no bytes are skipped. */
export function spEntry(): Uint8Array {
  return entry('SP', Uint8Array.of(0xbe, 0xef, 0));
}

// RRIP 1.09 4.1.1: the RR entry lists which Rock Ridge entries follow.
const RR_PX = 0x01;
const RR_NM = 0x08;
const RR_TF = 0x80;

export function rrEntry(hasName: boolean): Uint8Array {
  return entry('RR', Uint8Array.of(RR_PX | RR_TF | (hasName ? RR_NM : 0)));
}

/** RRIP 4.1.1: POSIX mode, link count, owner and group (36 bytes in 1.09). */
export function pxEntry(mode: number, links: number): Uint8Array {
  const body = new Uint8Array(32);
  const view = new DataView(body.buffer);
  putBothEndian32(view, 0, mode);
  putBothEndian32(view, 8, links);
  putBothEndian32(view, 16, 0); // uid root
  putBothEndian32(view, 24, 0); // gid root
  return entry('PX', body);
}

// RRIP 4.1.6 flags: modify, access and attribute-change times, short form.
const TF_MODIFY_ACCESS_ATTRIBUTES = 0x0e;

export function tfEntry(when: Date): Uint8Array {
  const stamp = shortDate(when);
  const body = new Uint8Array(1 + 3 * stamp.length);
  body[0] = TF_MODIFY_ACCESS_ATTRIBUTES;
  for (let i = 0; i < 3; i++) body.set(stamp, 1 + i * stamp.length);
  return entry('TF', body);
}

/** Longest name one NM entry carries in our records (a record is at most 255 bytes). */
export const MAX_ROCK_RIDGE_NAME_BYTES = 100;

/** RRIP 4.1.4: the alternate (POSIX) name, bytes as given, no version suffix. */
export function nmEntry(name: string): Uint8Array {
  const bytes = encoder.encode(name);
  if (bytes.length === 0 || bytes.length > MAX_ROCK_RIDGE_NAME_BYTES) {
    throw new RangeError(`Rock Ridge name must be 1..${MAX_ROCK_RIDGE_NAME_BYTES} bytes, got ${bytes.length}`);
  }
  return entry('NM', Uint8Array.of(0, ...bytes));
}

/** SUSP 5.1: points to a continuation area holding more entries. */
export function ceEntry(sector: number, offset: number, length: number): Uint8Array {
  const body = new Uint8Array(24);
  const view = new DataView(body.buffer);
  putBothEndian32(view, 0, sector);
  putBothEndian32(view, 8, offset);
  putBothEndian32(view, 16, length);
  return entry('CE', body);
}

// The identification genisoimage and xorriso write for RRIP 1.09.
const RRIP_ID = 'RRIP_1991A';
const RRIP_DESCRIPTOR = 'THE ROCK RIDGE INTERCHANGE PROTOCOL PROVIDES SUPPORT FOR POSIX FILE SYSTEM SEMANTICS';
const RRIP_SOURCE =
  'PLEASE CONTACT DISC PUBLISHER FOR SPECIFICATION SOURCE.  SEE PUBLISHER IDENTIFIER IN PRIMARY VOLUME DESCRIPTOR FOR CONTACT INFORMATION.';

/** SUSP 5.5: names the extension in use; too long for the "." record, so it lives in a continuation area. */
export function erEntry(): Uint8Array {
  const [id, descriptor, source] = [RRIP_ID, RRIP_DESCRIPTOR, RRIP_SOURCE].map((s) => encoder.encode(s)) as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];
  const body = new Uint8Array(4 + id.length + descriptor.length + source.length);
  body.set([id.length, descriptor.length, source.length, 1]);
  body.set(id, 4);
  body.set(descriptor, 4 + id.length);
  body.set(source, 4 + id.length + descriptor.length);
  return entry('ER', body);
}

export const FILE_MODE = 0o100444; // regular file, read-only for all: the seed is never written in the guest
export const DIRECTORY_MODE = 0o040555;
