/**
 * Cloud-init's own JSON schema for what the app hands cloud-init: user-data
 * and vendor-data that are cloud-config, and network-config version 2
 * (issue 25 item 1). The schemas are cloud-init's, vendored unchanged in
 * shared/vendor/cloud-init (its README names the releases); ajv checks them.
 *
 * Pure (no I/O), so main and tests share it. The renderer asks main through
 * the `cloudInit.check` channel instead of importing this: ajv compiles a
 * schema into a function with `new Function`, which the window's CSP
 * (script-src 'self', no 'unsafe-eval') refuses, and the window's bundle
 * stays without the 150 kB of schema and ajv.
 *
 * Each problem carries its place in the YAML (offsets, line, column, from
 * the `yaml` package's node ranges) and the schema's own description of the
 * key. A top-level key cloud-init has no module for is a warning, not a
 * refusal: cloud-init's schema check passes it and cloud-init ignores it.
 * The draft-04 schema (cloud-config) is checked by ajv-draft-04's Ajv class,
 * since ajv 8 itself dropped draft-04 (`id`, boolean exclusiveMaximum); the
 * network-config schema is draft-07, ajv's own default.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv07 from 'ajv';
import Ajv04 from 'ajv-draft-04';
import { isMap, isPair, isScalar, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import cloudConfigSchema from '../vendor/cloud-init/schema-cloud-config-v1.json';
import networkConfigSchema from '../vendor/cloud-init/schema-network-config-v2.json';

export type SchemaKind = 'cloud-config' | 'network-config';

export interface SchemaProblem {
  from: number;
  to: number;
  /** 1-based, as an editor shows it. */
  line: number;
  column: number;
  /** The key's path, as cloud-init prints it: `users.0.sudo`. */
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Schema = { description?: string; [key: string]: unknown };

/**
 * Python's jsonschema FormatChecker, as cloud-init 22.4 builds it on Debian, checks `date` but not `uri` nor
 * `hostname` (they need packages Debian's cloud-init does not pull in): the same here, so the verdicts agree.
 */
const formats = { uri: true, hostname: true, date: /^\d{4}-\d{2}-\d{2}$/ } as const;

/** The schema's version-2 body: a document under `network:` is unwrapped first, so errors name one form only. */
function networkV2(ajv: Ajv07): ValidateFunction {
  ajv.addSchema(networkConfigSchema, 'network-config-v2');
  const validate = ajv.getSchema('network-config-v2#/$defs/network_config_version2');
  if (!validate) throw new Error('The vendored network-config schema has no network_config_version2.');
  return validate;
}

let compiled: Record<SchemaKind, ValidateFunction> | undefined;
function validators(): Record<SchemaKind, ValidateFunction> {
  const options = { allErrors: true, strict: false, verbose: true, formats } as const;
  compiled ??= {
    'cloud-config': new Ajv04(options).compile(cloudConfigSchema),
    'network-config': networkV2(new Ajv07(options)),
  };
  return compiled;
}

/** Every top-level key some cloud-init module (or the base config) reads, with its schema. */
const topLevel: ReadonlyMap<string, Schema> = new Map(
  (cloudConfigSchema.allOf as { $ref: string }[]).flatMap(({ $ref }) => {
    const def = (cloudConfigSchema.$defs as Record<string, { properties?: Record<string, Schema> }>)[$ref.replace('#/$defs/', '')];
    return Object.entries(def?.properties ?? {});
  }),
);

/** A description written for cloud-init's docs (RST), as one plain sentence or two. */
function plain(description: string | undefined): string | undefined {
  if (!description) return undefined;
  const text = description
    .replace(/``([^`]+)``/g, '“$1”')
    .replace(/`([^`<]+)(?:\s*<[^>]*>)?`_*/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  const sentences = text.match(/[^.]+(?:\.(?=\s|$)|$)/g) ?? [text];
  const short = sentences.slice(0, 2).join('').trim();
  return short.length > 240 ? `${short.slice(0, 237)}…` : short;
}

/** Which of several errors at one place says most: a wrong key before a missing one before a wrong type; anyOf last. */
const rank: Record<string, number> = { additionalProperties: 0, required: 1, enum: 2, const: 2, type: 3, anyOf: 9, oneOf: 9 };
const rankOf = (e: ErrorObject) => rank[e.keyword] ?? 5;

function pick(errors: ErrorObject[]): ErrorObject[] {
  const byPath = new Map<string, ErrorObject>();
  for (const e of errors) {
    const key = e.keyword === 'additionalProperties' ? `${e.instancePath}/${String(e.params.additionalProperty)}` : e.instancePath;
    const seen = byPath.get(key);
    if (!seen || rankOf(e) < rankOf(seen)) byPath.set(key, e);
  }
  // Where one branch of an anyOf found a wrong or missing key, another branch's "must be text" is noise.
  const best = new Map<string, number>();
  for (const e of byPath.values()) best.set(e.instancePath, Math.min(best.get(e.instancePath) ?? 99, rankOf(e)));
  const kept = [...byPath.values()].filter((e) => rankOf(e) === best.get(e.instancePath));
  // An anyOf/oneOf that failed because of something found deeper says less than that thing.
  return kept.filter(
    (e) =>
      !((e.keyword === 'anyOf' || e.keyword === 'oneOf') && kept.some((o) => o !== e && o.instancePath.startsWith(`${e.instancePath}/`))),
  );
}

const typeWords: Record<string, string> = {
  array: 'a list',
  object: 'a mapping (key: value lines)',
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  null: 'empty',
};

const segments = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

function wording(e: ErrorObject, key: string): string {
  switch (e.keyword) {
    case 'additionalProperties': {
      const known = Object.keys(((e.parentSchema as Schema | undefined)?.properties as object | undefined) ?? {});
      const takes = known.length > 0 && known.length <= 16 ? `; it takes ${known.join(', ')}` : '';
      return `“${String(e.params.additionalProperty)}” is not a key cloud-init knows in “${key || 'the document'}”${takes}`;
    }
    case 'required':
      return `“${key || 'the document'}” needs “${String(e.params.missingProperty)}”`;
    case 'type':
      return `“${key}” must be ${String(e.params.type)
        .split(',')
        .map((t) => typeWords[t] ?? t)
        .join(' or ')}`;
    case 'enum':
      return `“${key}” must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'anyOf':
    case 'oneOf':
      return `“${key}” matches none of the forms cloud-init takes here`;
    default:
      return `“${key}” ${e.message ?? 'is not valid'}`;
  }
}

/** The problems of a document's parsed value; YAML that does not parse is the caller's (yamlProblems). */
export function schemaProblems(text: string, kind: SchemaKind): SchemaProblem[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) return [];
  const whole: unknown = doc.toJS({ maxAliasCount: 100 });
  // A network-config may sit under a top-level `network:` (netplan's form); cloud-init checks what is inside.
  const wrapped = kind === 'network-config' && isRecord(whole) && 'network' in whole;
  const value = wrapped ? whole.network : whole;
  const base = wrapped ? ['network'] : [];
  const at = (from: number, to: number, path: string, message: string, severity: SchemaProblem['severity']): SchemaProblem => {
    const { line, col } = lineCounter.linePos(from);
    return { from, to: Math.max(to, from), line, column: col, path, message, severity };
  };
  const rangeOf = (node: unknown): [number, number] => {
    const range = (node as YamlNode | undefined)?.range;
    return range ? [range[0], range[1]] : [0, Math.min(text.length, Math.max(0, text.indexOf('\n')))];
  };
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object' || Array.isArray(value))
    return [
      at(
        ...rangeOf(doc.contents),
        '',
        `The ${kind} must be a mapping of keys (“key: value” lines), not a ${Array.isArray(value) ? 'list' : 'single value'}.`,
        'error',
      ),
    ];

  const problems: SchemaProblem[] = [];
  const validate = validators()[kind];
  if (!validate(value)) {
    for (const e of pick(validate.errors ?? [])) {
      const path = [...base, ...segments(e.instancePath)];
      const node = doc.getIn(path, true);
      const top = path.length === 0;
      let [from, to] = rangeOf(top ? doc.contents : node);
      if (e.keyword === 'additionalProperties') {
        const parent = top ? doc.contents : node;
        const pair = isMap(parent)
          ? parent.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === e.params.additionalProperty)
          : undefined;
        if (pair) [from, to] = rangeOf(pair.key);
      } else if (isMap(node) || top) {
        to = Math.min(to, text.indexOf('\n', from) === -1 ? text.length : text.indexOf('\n', from));
      }
      const key = path.join('.');
      const about = plain((e.parentSchema as Schema | undefined)?.description);
      problems.push(at(from, to, key, `${wording(e, key)}.${about ? ` ${about}` : ''}`, 'error'));
    }
  }
  if (kind === 'cloud-config' && isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (!isScalar(pair.key)) continue;
      const name = String(pair.key.value);
      const known = topLevel.get(name);
      // A deprecated module key, as `cloud-init schema` lists it under "deprecations": cloud-init still reads it.
      if (known?.deprecated === true)
        problems.push(
          at(...rangeOf(pair.key), name, `“${name}” is deprecated: ${plain(known.description) ?? 'see cloud-init’s docs'}`, 'warning'),
        );
      if (known) continue;
      problems.push(
        at(...rangeOf(pair.key), name, `cloud-init has no module that reads “${name}”: it will ignore it. Check the spelling.`, 'warning'),
      );
    }
  }
  return problems.sort((a, b) => a.from - b.from);
}

/** The sentence refusing a document, for main's check; undefined when nothing is an error. `what` names it: "user-data". */
export function schemaRefusal(text: string, kind: SchemaKind, what: string): string | undefined {
  const errors = schemaProblems(text, kind).filter((p) => p.severity === 'error');
  if (errors.length === 0) return undefined;
  const first = errors[0]!;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  return `The ${what} does not match cloud-init's schema at line ${first.line}: ${first.message}${more}`;
}
