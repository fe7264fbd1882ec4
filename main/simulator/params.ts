/**
 * Parameter checks as Proxmox's schema applies them before any handler
 * runs: unknown keys, missing required ones, types, enums and patterns all
 * give `400 Parameter verification failed.` with one text per field.
 */
import { fieldText, paramError } from './errors';

export interface ParamSpec {
  type: 'string' | 'integer' | 'boolean' | 'number';
  optional?: boolean;
  enum?: readonly string[];
  /** Anchored to the whole value, as Proxmox does. */
  pattern?: RegExp;
}

export type ParamSpecs = Record<string, ParamSpec>;

export const str: ParamSpec = { type: 'string' };
export const optStr: ParamSpec = { type: 'string', optional: true };
export const int: ParamSpec = { type: 'integer' };
export const optInt: ParamSpec = { type: 'integer', optional: true };
export const optBool: ParamSpec = { type: 'boolean', optional: true };

const BOOLEAN = /^(?:0|1|true|false|yes|no|on|off)$/i;
const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Validates `params` against `specs`; `indexed` lists patterns for keys like
 * `net0` (the schema's `net[n]`). Throws the 400 Proxmox would send.
 */
export function verifyParams(params: Record<string, string>, specs: ParamSpecs, indexed: [RegExp, ParamSpec][] = []): void {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const spec = specs[key] ?? indexed.find(([re]) => re.test(key))?.[1];
    if (!spec) errors[key] = fieldText('paramUnknown');
    else {
      const problem = checkValue(value, spec);
      if (problem) errors[key] = problem;
    }
  }
  for (const [key, spec] of Object.entries(specs)) if (!spec.optional && params[key] === undefined) errors[key] = fieldText('paramMissing');
  if (Object.keys(errors).length > 0) throw paramError(errors);
}

function checkValue(value: string, spec: ParamSpec): string | undefined {
  const typeOk =
    spec.type === 'integer'
      ? INTEGER.test(value)
      : spec.type === 'boolean'
        ? BOOLEAN.test(value)
        : spec.type === 'number'
          ? NUMBER.test(value)
          : true;
  if (!typeOk) return fieldText('badParam', { integer: spec.type, abc: value });
  if (spec.enum && !spec.enum.includes(value))
    return fieldText('paramEnum', { vms: value, 'vm, storage, node, sdn': spec.enum.join(', ') });
  if (spec.pattern && !new RegExp(`^(?:${spec.pattern.source})$`).test(value)) return fieldText('paramPattern');
  return undefined;
}

export function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(?:1|true|yes|on)$/i.test(value);
}
