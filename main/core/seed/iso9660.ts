/**
 * A small ISO 9660 writer with Rock Ridge names: one flat root directory,
 * 2048-byte sectors, the same structure `genisoimage -iso-level 3 -R`
 * produces. No maintained pure-JS writer exists; this one writes only what
 * a NoCloud seed needs. The output depends only on the input and `now`.
 *
 * Layout, in sectors: 0-15 system area (zero), 16 primary volume
 * descriptor, 17 set terminator, 18 L path table, 19 M path table, 20.. the
 * root directory, then the Rock Ridge continuation area (the ER entry),
 * then each file's data from a sector boundary.
 */
import { concatBytes, directoryRecord, packRecords } from './directory-record';
import { SECTOR_SIZE, sectorsFor } from './iso-fields';
import { compareIdentifiers, isoIdentifiers } from './iso-names';
import { DIRECTORY_MODE, FILE_MODE, ceEntry, erEntry, nmEntry, pxEntry, rrEntry, spEntry, tfEntry } from './rock-ridge';
import { primaryVolumeDescriptor, rootPathTable, setTerminator } from './volume-descriptor';

export interface IsoFile {
  /** The Rock Ridge name Linux shows, e.g. "user-data". */
  name: string;
  bytes: Uint8Array;
}

export interface IsoOptions {
  /** Volume label (blkid's LABEL), at most 32 printable ASCII characters. */
  volumeId: string;
  /** Every timestamp in the image; pass a fixed date for reproducible output. */
  now: Date;
  applicationId?: string;
}

const PVD_SECTOR = 16;
const L_PATH_TABLE_SECTOR = 18;
const M_PATH_TABLE_SECTOR = 19;
const ROOT_SECTOR = 20;
const PATH_TABLE_SIZE = 10;
// A single extent's size field is 32 bits; a seed is far below this.
const MAX_FILE_BYTES = 0xffff_ffff;

export function buildIso(files: readonly IsoFile[], options: IsoOptions): Uint8Array {
  checkInput(files, options);
  const { now } = options;
  const entries = inDirectoryOrder(files);
  const layout = planLayout(entries, now);
  const image = new Uint8Array(layout.volumeSectors * SECTOR_SIZE);
  image.set(primaryDescriptor(layout, options), PVD_SECTOR * SECTOR_SIZE);
  image.set(setTerminator(), (PVD_SECTOR + 1) * SECTOR_SIZE);
  image.set(rootPathTable(ROOT_SECTOR, true), L_PATH_TABLE_SECTOR * SECTOR_SIZE);
  image.set(rootPathTable(ROOT_SECTOR, false), M_PATH_TABLE_SECTOR * SECTOR_SIZE);
  image.set(packRecords(rootRecords(entries, layout, now)), ROOT_SECTOR * SECTOR_SIZE);
  image.set(erEntry(), layout.ceSector * SECTOR_SIZE);
  entries.forEach(({ file }, i) => image.set(file.bytes, layout.extents[i]! * SECTOR_SIZE));
  return image;
}

interface Entry {
  file: IsoFile;
  identifier: string;
}

interface Layout {
  rootSize: number;
  ceSector: number;
  /** First sector of each entry's data; an empty file points at the next free sector, as genisoimage does. */
  extents: readonly number[];
  volumeSectors: number;
}

function inDirectoryOrder(files: readonly IsoFile[]): Entry[] {
  const identifiers = isoIdentifiers(files.map((f) => f.name));
  return files.map((file, i) => ({ file, identifier: identifiers[i]! })).sort((a, b) => compareIdentifiers(a.identifier, b.identifier));
}

function planLayout(entries: readonly Entry[], now: Date): Layout {
  // A record's length does not depend on the extents in it, so placeholders give the directory's true size.
  const placeholder: Layout = { rootSize: 0, ceSector: 0, extents: [], volumeSectors: 0 };
  const rootSize = packRecords(rootRecords(entries, placeholder, now)).length;
  const ceSector = ROOT_SECTOR + sectorsFor(rootSize);
  const extents: number[] = [];
  let next = ceSector + 1;
  for (const { file } of entries) {
    extents.push(next);
    next += sectorsFor(file.bytes.length);
  }
  return { rootSize, ceSector, extents, volumeSectors: next };
}

function primaryDescriptor(layout: Layout, options: IsoOptions): Uint8Array {
  return primaryVolumeDescriptor({
    volumeId: options.volumeId,
    applicationId: options.applicationId ?? '',
    volumeSectors: layout.volumeSectors,
    pathTableSize: PATH_TABLE_SIZE,
    lPathTableSector: L_PATH_TABLE_SECTOR,
    mPathTableSector: M_PATH_TABLE_SECTOR,
    // The copy of the root record in the descriptor carries no Rock Ridge entries.
    rootRecord: directoryRecord({ ...rootDirectory(layout, options.now), identifier: Uint8Array.of(0), systemUse: new Uint8Array(0) }),
    when: options.now,
  });
}

function rootDirectory(layout: Layout, now: Date) {
  return { extent: ROOT_SECTOR, size: layout.rootSize, directory: true, when: now };
}

const encoder = new TextEncoder();

function rootRecords(entries: readonly Entry[], layout: Layout, now: Date): Uint8Array[] {
  const dirAttributes = [pxEntry(DIRECTORY_MODE, 2), tfEntry(now)];
  const erLength = erEntry().length;
  const self = concatBytes([spEntry(), rrEntry(false), ...dirAttributes, ceEntry(layout.ceSector, 0, erLength)]);
  const parent = concatBytes([rrEntry(false), ...dirAttributes]);
  return [
    directoryRecord({ ...rootDirectory(layout, now), identifier: Uint8Array.of(0), systemUse: self }),
    directoryRecord({ ...rootDirectory(layout, now), identifier: Uint8Array.of(1), systemUse: parent }),
    ...entries.map(({ file, identifier }, i) =>
      directoryRecord({
        identifier: encoder.encode(identifier),
        extent: layout.extents[i] ?? 0,
        size: file.bytes.length,
        directory: false,
        when: now,
        systemUse: concatBytes([rrEntry(true), nmEntry(file.name), pxEntry(FILE_MODE, 1), tfEntry(now)]),
      }),
    ),
  ];
}

function checkInput(files: readonly IsoFile[], options: IsoOptions): void {
  const year = options.now.getUTCFullYear();
  if (Number.isNaN(options.now.getTime()) || year < 1900 || year > 2155) {
    throw new RangeError('ISO timestamp must be a valid date between 1900 and 2155');
  }
  const names = new Set<string>();
  for (const { name, bytes } of files) {
    if (name === '.' || name === '..' || /[/\0]/.test(name)) throw new RangeError(`not a file name: ${JSON.stringify(name)}`);
    if (names.has(name)) throw new RangeError(`duplicate file name ${JSON.stringify(name)}`);
    if (bytes.length > MAX_FILE_BYTES) throw new RangeError(`${name} is larger than one ISO 9660 extent`);
    names.add(name);
  }
}
