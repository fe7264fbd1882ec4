/**
 * The YAML the app writes for cloud-init (the seed's meta-data, the Create
 * presets), always through the `yaml` package and never by pasting values
 * into text. cloud-init reads it with PyYAML, a YAML 1.1 reader, where a
 * plain `yes`, `off`, `null`, `0x1` or `~` is a boolean, a null or a
 * number: a proxy named `yes` made cloud-init 22.4 fail on its meta-data.
 * So every string is written double-quoted, which every YAML version reads
 * as a string; a file's contents as a literal block (`|`), which is text
 * in every version too. Pure: used by main's core and by the renderer.
 */
import { Document, isMap, isScalar, Scalar, type Tags } from 'yaml';

const MERGE = 'tag:yaml.org,2002:merge';
/**
 * Version 1.1 so that a key a 1.1 reader takes for a boolean (`on:`) is quoted too (keys are the app's own names);
 * without the 1.1 merge tag, which would write the string `<<` plain, where PyYAML reads a merge. lineWidth 0: no
 * folded lines.
 */
const OPTIONS = {
  version: '1.1',
  customTags: (tags: Tags) => tags.filter((t) => typeof t === 'string' || t.tag !== MERGE),
  defaultStringType: 'QUOTE_DOUBLE',
  defaultKeyType: 'PLAIN',
  lineWidth: 0,
} as const;

/** A multi-line text (a config file's contents) kept readable as a literal block. */
export function literalBlock(text: string): Scalar<string> {
  const node = new Scalar(text);
  node.type = Scalar.BLOCK_LITERAL;
  return node;
}

/** `value` as YAML: strings double-quoted, maps in block style. */
export function cloudYaml(value: object): string {
  return new Document(value, OPTIONS).toString(OPTIONS);
}

/**
 * A `#cloud-config` document: cloud-init's header line, then `config` as YAML. `notes` are comment lines
 * written above the named top-level keys (for the admin reading the text; cloud-init ignores them).
 */
export function cloudConfig(config: Record<string, unknown>, notes: Record<string, string> = {}): string {
  const doc = new Document(config, OPTIONS);
  for (const [key, note] of Object.entries(notes)) {
    const found = isMap(doc.contents) ? doc.contents.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined;
    if (!found || !isScalar(found.key)) throw new Error(`cloudConfig: no top-level key ${key} to put the note above`);
    found.key.commentBefore = ` ${note}`;
  }
  return `#cloud-config\n${doc.toString(OPTIONS)}`;
}
