/**
 * Reading a Proxmox answer: `{data: …}` on success, `{message, errors}` or
 * nothing on failure (F1: a 401 carries its text in the reason phrase only).
 */
import type { z } from 'zod';
import { ApiError, ResponseShapeError, type CallSite } from './errors';
import { ErrorBodySchema } from './schemas';

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** The ApiError for a non-2xx answer: the body's message without its trailing newline, else the reason phrase. */
export function apiErrorFromAnswer(status: number, reason: string, body: string, call: CallSite): ApiError {
  const parsed = ErrorBodySchema.safeParse(parseJson(body));
  const fromBody = parsed.success ? parsed.data.message?.replace(/\n+$/, '') : undefined;
  const message = fromBody && fromBody.length > 0 ? fromBody : reason || `HTTP ${status}`;
  const errors = parsed.success ? parsed.data.errors : undefined;
  return new ApiError({ status, message, errors, call });
}

/** Zod's issues as one short line: `data.0.vmid: expected a number`. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

/** Parses `{data: …}` (or, with `whole`, the entire body) with `schema`; a mismatch is a ResponseShapeError naming the call. */
export function readData<S extends z.ZodType>(schema: S, body: string, call: CallSite, whole = false): z.output<S> {
  const json = parseJson(body);
  if (json === undefined || typeof json !== 'object' || json === null) {
    throw new ResponseShapeError(call, 'the body is not a JSON object');
  }
  const value = whole ? json : (json as { data?: unknown }).data;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ResponseShapeError(call, describeIssues(parsed.error));
  return parsed.data;
}
