/**
 * The plain ISO 9660 file identifiers under the Rock Ridge names. Readers
 * without Rock Ridge see these, so they must be valid d-characters
 * (A-Z, 0-9, _) and unique; `user-data` becomes `USER_DATA.;1`, as
 * genisoimage -iso-level 3 writes it.
 */

// ECMA-119 7.5 at levels 2 and 3: name plus extension at most 30 characters.
const MAX_NAME_AND_EXTENSION = 30;

function toDCharacters(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
}

function split(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { base: toDCharacters(name), extension: '' };
  return { base: toDCharacters(name.slice(0, dot)), extension: toDCharacters(name.slice(dot + 1)).slice(0, 8) };
}

function identifier(base: string, extension: string): string {
  return `${base.slice(0, MAX_NAME_AND_EXTENSION - extension.length)}.${extension};1`;
}

/** One identifier per name, in input order, unique within the directory. */
export function isoIdentifiers(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const { base, extension } = split(name);
    let candidate = identifier(base, extension);
    for (let n = 1; taken.has(candidate); n++) {
      // Collisions ("a-b" and "a_b") keep the base's start and end in a counter.
      const suffix = `_${n}`;
      candidate = identifier(base.slice(0, MAX_NAME_AND_EXTENSION - extension.length - suffix.length) + suffix, extension);
    }
    taken.add(candidate);
    return candidate;
  });
}

/**
 * ECMA-119 9.3: records are sorted by identifier, comparing the name parts
 * (as if padded with spaces), then the extensions, as bytes.
 */
export function compareIdentifiers(a: string, b: string): number {
  const [aName = '', aExt = ''] = a.replace(/;1$/, '').split('.');
  const [bName = '', bExt = ''] = b.replace(/;1$/, '').split('.');
  return comparePadded(aName, bName) || comparePadded(aExt, bExt);
}

function comparePadded(a: string, b: string): number {
  const width = Math.max(a.length, b.length);
  const pa = a.padEnd(width, ' ');
  const pb = b.padEnd(width, ' ');
  return pa < pb ? -1 : pa > pb ? 1 : 0;
}
