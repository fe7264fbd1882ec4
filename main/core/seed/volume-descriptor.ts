/**
 * ECMA-119 8.4 primary volume descriptor, 8.3 set terminator and 9.4 path
 * tables, for a volume whose only directory is the root.
 */
import { SECTOR_SIZE, longDate, putBothEndian16, putBothEndian32, putPaddedText, unspecifiedLongDate } from './iso-fields';

const STANDARD_ID = 'CD001';

function descriptorHeader(type: number): Uint8Array {
  const sector = new Uint8Array(SECTOR_SIZE);
  sector[0] = type;
  for (let i = 0; i < STANDARD_ID.length; i++) sector[1 + i] = STANDARD_ID.charCodeAt(i);
  sector[6] = 1; // descriptor version
  return sector;
}

export interface PrimaryDescriptorFields {
  volumeId: string;
  applicationId: string;
  volumeSectors: number;
  pathTableSize: number;
  lPathTableSector: number;
  mPathTableSector: number;
  /** The 34-byte root directory record. */
  rootRecord: Uint8Array;
  when: Date;
}

export function primaryVolumeDescriptor(f: PrimaryDescriptorFields): Uint8Array {
  const sector = descriptorHeader(1);
  const view = new DataView(sector.buffer);
  putPaddedText(sector, 8, 32, ''); // system identifier
  // The label is written as given: cloud-init looks for lowercase "cidata",
  // which is not d-characters, exactly as genisoimage -V cidata writes it.
  putPaddedText(sector, 40, 32, f.volumeId);
  putBothEndian32(view, 80, f.volumeSectors);
  putBothEndian16(view, 120, 1); // volume set size
  putBothEndian16(view, 124, 1); // volume sequence number
  putBothEndian16(view, 128, SECTOR_SIZE);
  putBothEndian32(view, 132, f.pathTableSize);
  view.setUint32(140, f.lPathTableSector, true);
  view.setUint32(148, f.mPathTableSector, false);
  sector.set(f.rootRecord, 156);
  putPaddedText(sector, 190, 128, ''); // volume set
  putPaddedText(sector, 318, 128, ''); // publisher
  putPaddedText(sector, 446, 128, ''); // data preparer
  putPaddedText(sector, 574, 128, f.applicationId);
  putPaddedText(sector, 702, 37, ''); // copyright file
  putPaddedText(sector, 739, 37, ''); // abstract file
  putPaddedText(sector, 776, 37, ''); // bibliographic file
  sector.set(longDate(f.when), 813); // creation
  sector.set(longDate(f.when), 830); // modification (blkid derives the UUID from it)
  sector.set(unspecifiedLongDate(), 847); // expiration
  sector.set(unspecifiedLongDate(), 864); // effective
  sector[881] = 1; // file structure version
  return sector;
}

export function setTerminator(): Uint8Array {
  return descriptorHeader(255);
}

/** The one path table entry (the root): 10 bytes, in either byte order. */
export function rootPathTable(rootSector: number, littleEndian: boolean): Uint8Array {
  const table = new Uint8Array(10);
  const view = new DataView(table.buffer);
  table[0] = 1; // identifier length
  view.setUint32(2, rootSector, littleEndian);
  view.setUint16(6, 1, littleEndian); // parent directory number: the root is its own parent
  table[8] = 0; // identifier 0x00, then one padding byte
  return table;
}
