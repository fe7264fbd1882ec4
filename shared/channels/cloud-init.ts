/**
 * Issue 25 item 1: a document checked against cloud-init's own schema
 * (shared/domain/cloud-init-schema.ts) for the editors' marks. Main runs the
 * check: ajv compiles the schema with `new Function`, which the window's CSP
 * refuses, and the window's bundle stays without schema and ajv. Reads only.
 */
import { z } from 'zod';
import { defineChannels } from '../define';
import { USER_DATA_MAX_CHARS } from '../domain/user-data';

export const SchemaProblem = z
  .object({
    from: z.number().int(),
    to: z.number().int(),
    line: z.number().int(),
    column: z.number().int(),
    path: z.string(),
    message: z.string(),
    severity: z.enum(['error', 'warning']),
  })
  .strict();

export const cloudInitChannels = defineChannels({
  /** The schema problems of a cloud-config (user-data, vendor-data) or a network-config v2; none for YAML that does not parse. */
  'cloudInit.check': {
    input: z.object({ text: z.string().max(USER_DATA_MAX_CHARS), kind: z.enum(['cloud-config', 'network-config']) }).strict(),
    output: z.array(SchemaProblem),
  },
});
