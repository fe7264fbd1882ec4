/**
 * Field encoders of ECMA-119 (ISO 9660): numbers are stored "both-endian"
 * (little-endian copy, then big-endian copy) so readers on either kind of CPU
 * can use them directly, and strings are space-padded to fixed widths.
 */

export const SECTOR_SIZE = 2048;

/** ECMA-119 7.2.3: a 16-bit number, little-endian then big-endian (4 bytes). */
export function putBothEndian16(view: DataView, offset: number, value: number): void {
  view.setUint16(offset, value, true);
  view.setUint16(offset + 2, value, false);
}

/** ECMA-119 7.3.3: a 32-bit number, little-endian then big-endian (8 bytes). */
export function putBothEndian32(view: DataView, offset: number, value: number): void {
  view.setUint32(offset, value, true);
  view.setUint32(offset + 4, value, false);
}

/** Writes ASCII text left-aligned in a field of `width` bytes, padded with spaces. */
export function putPaddedText(target: Uint8Array, offset: number, width: number, text: string): void {
  if (text.length > width || !/^[\x20-\x7e]*$/.test(text)) {
    throw new RangeError(`ISO text field of width ${width} cannot hold ${JSON.stringify(text)}`);
  }
  target.fill(0x20, offset, offset + width);
  for (let i = 0; i < text.length; i++) target[offset + i] = text.charCodeAt(i);
}

/**
 * ECMA-119 9.1.5: the 7-byte date of a directory record (also Rock Ridge TF):
 * years since 1900, month, day, hour, minute, second, offset from GMT in
 * 15-minute steps. Always written in UTC so the output does not depend on
 * the machine's time zone.
 */
export function shortDate(date: Date): Uint8Array {
  return Uint8Array.of(
    date.getUTCFullYear() - 1900,
    date.getUTCMonth() + 1,
    date.getUTCDate(),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    0,
  );
}

/** ECMA-119 8.4.26.1: the 17-byte volume date, "YYYYMMDDHHMMSScc" plus a GMT offset byte. */
export function longDate(date: Date): Uint8Array {
  const two = (n: number) => String(n).padStart(2, '0');
  const digits =
    String(date.getUTCFullYear()).padStart(4, '0') +
    two(date.getUTCMonth() + 1) +
    two(date.getUTCDate()) +
    two(date.getUTCHours()) +
    two(date.getUTCMinutes()) +
    two(date.getUTCSeconds()) +
    two(Math.floor(date.getUTCMilliseconds() / 10));
  const out = new Uint8Array(17);
  for (let i = 0; i < 16; i++) out[i] = digits.charCodeAt(i);
  return out;
}

/** ECMA-119 8.4.26.1: "not specified" is sixteen '0' digits and a zero offset. */
export function unspecifiedLongDate(): Uint8Array {
  const out = new Uint8Array(17).fill(0x30);
  out[16] = 0;
  return out;
}

export function sectorsFor(byteLength: number): number {
  return Math.ceil(byteLength / SECTOR_SIZE);
}
