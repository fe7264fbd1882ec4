/**
 * A minimal ISO 9660 + Rock Ridge reader, for tests only: enough to read a
 * flat root directory back (label, plain identifiers, NM names, contents)
 * in process, so property tests can run hundreds of cases without spawning
 * a tool. The acceptance proof uses Debian's readers; this one is for speed.
 */
const SECTOR = 2048;
const decoder = new TextDecoder('utf-8', { fatal: true });

export interface ReadEntry {
  isoName: string;
  /** The Rock Ridge NM name, if the record has one. */
  name: string | undefined;
  extent: number;
  bytes: Uint8Array;
  /** Signatures of the SUSP entries in the record, in order. */
  signatures: string[];
}

export interface ReadImage {
  label: string;
  volumeSectors: number;
  rootSignatures: string[];
  files: ReadEntry[];
}

function ascii(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

function bothEndian32(view: DataView, offset: number): number {
  const le = view.getUint32(offset, true);
  if (le !== view.getUint32(offset + 4, false)) throw new Error(`both-endian field at ${offset} disagrees`);
  return le;
}

function suspEntries(su: Uint8Array): { signature: string; body: Uint8Array }[] {
  const out: { signature: string; body: Uint8Array }[] = [];
  for (let i = 0; i + 4 <= su.length && su[i + 2]! > 0;) {
    const length = su[i + 2]!;
    out.push({ signature: ascii(su.subarray(i, i + 2)), body: su.subarray(i + 4, i + length) });
    i += length;
  }
  return out;
}

export function readIso(image: Uint8Array): ReadImage {
  const pvd = image.subarray(16 * SECTOR, 17 * SECTOR);
  if (pvd[0] !== 1 || ascii(pvd.subarray(1, 6)) !== 'CD001') throw new Error('no primary volume descriptor at sector 16');
  const view = new DataView(image.buffer, image.byteOffset, image.byteLength);
  const pvdAt = 16 * SECTOR;
  const rootExtent = bothEndian32(view, pvdAt + 156 + 2);
  const rootSize = bothEndian32(view, pvdAt + 156 + 10);
  const result: ReadImage = {
    label: ascii(pvd.subarray(40, 72)).trimEnd(),
    volumeSectors: bothEndian32(view, pvdAt + 80),
    rootSignatures: [],
    files: [],
  };
  for (let at = rootExtent * SECTOR, end = at + rootSize; at < end;) {
    const length = image[at]!;
    if (length === 0) {
      at = (Math.floor(at / SECTOR) + 1) * SECTOR; // rest of the sector is padding
      continue;
    }
    const record = image.subarray(at, at + length);
    const idLength = record[32]!;
    const identifier = record.subarray(33, 33 + idLength);
    const entries = suspEntries(record.subarray(33 + idLength + (idLength % 2 === 0 ? 1 : 0)));
    const signatures = entries.map((e) => e.signature);
    if (idLength === 1 && identifier[0] === 0) result.rootSignatures = signatures;
    else if (!(idLength === 1 && identifier[0] === 1)) {
      const extent = bothEndian32(view, at + 2);
      const size = bothEndian32(view, at + 10);
      const nm = entries.find((e) => e.signature === 'NM');
      result.files.push({
        isoName: ascii(identifier),
        name: nm ? decoder.decode(nm.body.subarray(1)) : undefined,
        extent,
        bytes: image.slice(extent * SECTOR, extent * SECTOR + size),
        signatures,
      });
    }
    at += length;
  }
  return result;
}

/** Rock Ridge name to contents, as Linux would show the directory. */
export function filesByName(image: Uint8Array): Map<string, Uint8Array> {
  return new Map(readIso(image).files.map((f) => [f.name ?? f.isoName, f.bytes]));
}
