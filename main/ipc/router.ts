/**
 * The contract router: the one place a request from a renderer meets a
 * handler. It is transport-agnostic (Electron IPC and the browser-mode
 * WebSocket both call `dispatch`) and never throws: every outcome is an
 * envelope. Inputs are validated with the channel's schema before the handler
 * runs, outputs are validated before they leave, so a renderer can neither
 * crash main with a bad payload nor receive something the contract does not
 * allow.
 */
import type { z } from 'zod';
import { channelNames, channels, isChannelName, type ChannelName, type ChannelOutput, type Channels } from '../../shared/contract';
import type { Envelope } from '../../shared/errors';
import type { Logger } from '../log/logger';
import { internalErrorValue, toAppErrorValue } from '../errors/app-error';

export interface RequestContext {
  /** Aborted when the requesting window or socket goes away. */
  signal: AbortSignal;
  /** `electron` or `browser`, for logging. */
  transport: string;
}

export type Handler<C extends ChannelName> = (
  input: z.output<Channels[C]['input']>,
  ctx: RequestContext,
) => Promise<ChannelOutput<C>> | ChannelOutput<C>;

export type Handlers = { [C in ChannelName]: Handler<C> };

/** The handlers of one area's channels (`shared/channels/<area>.ts`); compose.ts joins the areas into `Handlers`. */
export type AreaHandlers<T> = { [C in keyof T & ChannelName]: Handler<C> };

export interface Router {
  readonly channels: readonly ChannelName[];
  dispatch(channel: unknown, rawInput: unknown, ctx: RequestContext): Promise<Envelope<unknown>>;
}

/** The first issue of a zod error, as a dotted field path and a short message. */
function describeIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
  const message = issue ? issue.message : 'invalid value';
  return { field, message: message.length > 200 ? message.slice(0, 200) + '…' : message };
}

export function createRouter(handlers: Handlers, log: Logger): Router {
  const bound = Object.keys(handlers);
  const missing = channelNames.filter((c) => !Object.hasOwn(handlers, c));
  const undeclared = bound.filter((c) => !isChannelName(c));
  if (missing.length > 0 || undeclared.length > 0) {
    throw new Error(`IPC router: missing handlers [${missing.join(', ')}], undeclared handlers [${undeclared.join(', ')}]`);
  }

  async function dispatch(channel: unknown, rawInput: unknown, ctx: RequestContext): Promise<Envelope<unknown>> {
    if (!isChannelName(channel)) {
      const shown = typeof channel === 'string' ? channel.slice(0, 80) : typeof channel;
      log.warn('ipc request on an undeclared channel', { channel: shown, transport: ctx.transport });
      return {
        ok: false,
        error: {
          kind: 'invalid-input',
          message: `There is no request named "${shown}".`,
          hint: 'Update the app: its window and its main process disagree.',
          field: 'channel',
        },
      };
    }
    const spec = channels[channel];
    // A call with no argument means "no input"; null or any other non-object is malformed.
    const parsed = spec.input.safeParse(rawInput === undefined ? {} : rawInput);
    if (!parsed.success) {
      const { field, message } = describeIssue(parsed.error);
      log.warn('ipc request refused: invalid input', { channel, field, issue: message, transport: ctx.transport });
      return {
        ok: false,
        error: {
          kind: 'invalid-input',
          message: `Invalid value for ${field}: ${message}`,
          hint: 'Correct the field and try again.',
          field,
        },
      };
    }
    try {
      const handler = handlers[channel] as (input: unknown, ctx: RequestContext) => unknown;
      const value = await handler(parsed.data, ctx);
      const checked = spec.output.safeParse(value);
      if (!checked.success) {
        log.error('ipc handler answered outside the contract', { channel, issue: describeIssue(checked.error) });
        return { ok: false, error: internalErrorValue };
      }
      return { ok: true, value: checked.data };
    } catch (e) {
      const value = toAppErrorValue(e);
      if (value) {
        log.info('ipc request failed', { channel, kind: value.kind, error: value.message });
        return { ok: false, error: value };
      }
      log.error('ipc handler threw an unclassified error', {
        channel,
        error: e instanceof Error ? e.message : String(e),
        stack: e instanceof Error ? e.stack : undefined,
      });
      return { ok: false, error: internalErrorValue };
    }
  }

  return { channels: channelNames, dispatch };
}
