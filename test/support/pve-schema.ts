/**
 * The official Proxmox VE API schema (../shared/pve-api/apidata.js, AGPL),
 * read at test time and never copied into the project, and a checker that
 * holds one recorded request to it: the method and path exist, tokens are
 * allowed, every key is a known parameter, required ones are present, and
 * types, enums and patterns hold.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';

export const PVE_SCHEMA_PATH = join(import.meta.dirname, '..', '..', '..', 'shared', 'pve-api', 'apidata.js');

interface SchemaParam {
  type?: string;
  optional?: number;
  enum?: string[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

interface SchemaMethod {
  allowtoken?: number;
  parameters?: { properties?: Record<string, SchemaParam> };
}

interface SchemaNode {
  path: string;
  info?: Record<string, SchemaMethod>;
  children?: SchemaNode[];
}

export interface SchemaEndpoint {
  method: string;
  path: string;
  allowtoken: boolean;
  params: Record<string, SchemaParam>;
}

export interface CheckedRequest {
  method: string;
  /** The path under /api2/json as sent, percent-encoded (a volid's `/` is `%2F`). */
  path: string;
  /** Query and form values together. */
  params: Record<string, string>;
}

export class PveSchema {
  private readonly endpoints: { endpoint: SchemaEndpoint; matcher: RegExp; placeholders: string[] }[] = [];

  constructor(tree: SchemaNode[]) {
    const walk = (nodes: SchemaNode[]) => {
      for (const n of nodes) {
        for (const [method, info] of Object.entries(n.info ?? {})) {
          const placeholders = [...n.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
          const matcher = new RegExp(`^${n.path.replace(/\{[^}]+\}/g, '([^/]+)')}$`);
          this.endpoints.push({
            endpoint: { method, path: n.path, allowtoken: info.allowtoken === 1, params: info.parameters?.properties ?? {} },
            matcher,
            placeholders,
          });
        }
        walk(n.children ?? []);
      }
    };
    walk(tree);
  }

  /** The endpoint a template path (`/nodes/{node}/…`) names, if the schema has it. */
  endpoint(method: string, templatePath: string): SchemaEndpoint | undefined {
    return this.endpoints.find((e) => e.endpoint.method === method && e.endpoint.path === templatePath)?.endpoint;
  }

  /** Every problem the schema finds with a request; empty when it conforms. */
  check(req: CheckedRequest): string[] {
    const hit = this.endpoints.find((e) => e.endpoint.method === req.method && e.matcher.test(req.path));
    if (!hit) return [`${req.method} ${req.path}: no such method and path in the API schema`];
    const { endpoint } = hit;
    const problems: string[] = [];
    const where = `${req.method} ${endpoint.path}`;
    if (!endpoint.allowtoken) problems.push(`${where}: API tokens are not allowed`);
    const fromPath = Object.fromEntries(
      hit.placeholders.map((name, i) => [name, decodeURIComponent(req.path.match(hit.matcher)![i + 1]!)]),
    );
    const values = { ...req.params, ...fromPath };
    for (const [key, value] of Object.entries(values)) {
      const spec = endpoint.params[key] ?? endpoint.params[key.replace(/\d+$/, '[n]')];
      if (!spec) problems.push(`${where}: unknown parameter ${key}`);
      else problems.push(...checkValue(spec, value).map((p) => `${where}: ${key}=${JSON.stringify(value)} ${p}`));
    }
    for (const [key, spec] of Object.entries(endpoint.params))
      if (!spec.optional && values[key] === undefined && !key.includes('[n]')) problems.push(`${where}: required parameter ${key} missing`);
    return problems;
  }
}

function checkValue(spec: SchemaParam, value: string): string[] {
  const out: string[] = [];
  if (spec.type === 'integer' && !/^[+-]?\d+$/.test(value)) out.push('is not an integer');
  if (spec.type === 'number' && Number.isNaN(Number(value))) out.push('is not a number');
  if (spec.type === 'boolean' && !/^(0|1|true|false|yes|no|on|off)$/i.test(value)) out.push('is not a boolean');
  if (spec.enum && !spec.enum.includes(value)) out.push(`is not one of ${spec.enum.join(', ')}`);
  if (spec.pattern && !new RegExp(`^(?:${perlToJs(spec.pattern)})$`).test(value)) out.push(`does not match ${spec.pattern}`);
  if (spec.type === 'integer' && spec.minimum !== undefined && Number(value) < spec.minimum) out.push(`is below ${spec.minimum}`);
  if (spec.type === 'integer' && spec.maximum !== undefined && Number(value) > spec.maximum) out.push(`is above ${spec.maximum}`);
  if (spec.maxLength !== undefined && value.length > spec.maxLength) out.push(`is longer than ${spec.maxLength}`);
  return out;
}

/** Perl's `(?^:…)` groups become plain non-capturing groups. */
function perlToJs(pattern: string): string {
  return pattern.replace(/\(\?\^:/g, '(?:');
}

/** Loads the schema, or undefined (with the reason) when ../shared/pve-api is not there. */
export function loadPveSchema(): { schema: PveSchema } | { skipReason: string } {
  if (!existsSync(PVE_SCHEMA_PATH)) return { skipReason: `the Proxmox API schema is not at ${PVE_SCHEMA_PATH}; conformance not checked` };
  const sandbox: { apiSchema?: SchemaNode[] } = {};
  // The file is `const apiSchema = [...]`; a const does not leak out of the script, so copy it to the sandbox's global.
  runInNewContext(`${readFileSync(PVE_SCHEMA_PATH, 'utf8')}\n;this.apiSchema = apiSchema;`, sandbox, { timeout: 10_000 });
  if (!Array.isArray(sandbox.apiSchema)) return { skipReason: `${PVE_SCHEMA_PATH} does not define apiSchema` };
  return { schema: new PveSchema(sandbox.apiSchema) };
}
