/**
 * The client's failures other than a Proxmox answer (that is ApiError in
 * errors.ts). Each knows its class (spec entry 13), so classification needs
 * no message matching for them. None carries a header, a query string, a
 * response body from an upload, or the secret.
 */
import { redactSecrets } from '../../log/secrets';
import { classifyTaskReason } from './task-reasons';

export type FailureClass = 'permanent' | 'transient' | 'not-found';

/** Which call failed, as a user can act on it: method and path, never the query. */
export interface CallSite {
  method: string;
  path: string;
}

/** An error that already knows its class ("an error already wrapped with a class": that class). */
export abstract class ClassifiedError extends Error {
  abstract readonly failureClass: FailureClass;
  constructor(message: string, options?: ErrorOptions) {
    super(redactSecrets(message), options);
  }
}

function at(call: CallSite | undefined): string {
  return call ? `${call.method} ${call.path}: ` : '';
}

export type TransportFailure = 'connect' | 'timeout' | 'reset' | 'aborted' | 'protocol';

/** The network, a timeout or a cancellation: retrying may work. */
export class TransportError extends ClassifiedError {
  override readonly name = 'TransportError';
  readonly failureClass = 'transient';
  constructor(
    readonly failure: TransportFailure,
    detail: string,
    readonly call?: CallSite,
  ) {
    super(`${at(call)}${detail}`);
  }
}

/**
 * The server's certificate did not verify. Permanent: the URL, CA or pin is
 * wrong and the admin must act. The message says what was expected and what
 * the certificate offers.
 */
export class TlsVerificationError extends ClassifiedError {
  override readonly name = 'TlsVerificationError';
  readonly failureClass = 'permanent';
  constructor(
    readonly reason: 'unknown-ca' | 'hostname' | 'fingerprint' | 'invalid',
    message: string,
    readonly call?: CallSite,
  ) {
    super(`${at(call)}${message}`);
  }
}

/** The token file: missing is transient (it may not have landed yet), malformed or unreadable is permanent. */
export class TokenFileError extends ClassifiedError {
  override readonly name = 'TokenFileError';
  readonly failureClass: FailureClass;
  constructor(
    readonly reason: 'missing' | 'malformed' | 'unreadable',
    readonly path: string,
  ) {
    super(tokenFileMessage(reason, path));
    this.failureClass = reason === 'missing' ? 'transient' : 'permanent';
  }
}

function tokenFileMessage(reason: TokenFileError['reason'], path: string): string {
  if (reason === 'missing') return `The token file ${path} does not exist (yet).`;
  if (reason === 'unreadable') return `The token file ${path} cannot be read.`;
  // Never quote the content: it holds the secret.
  return `The token file ${path} is not one line of the form <user>@<realm>!<tokenid>=<secret>.`;
}

/** Proxmox answered 2xx with a body the app cannot use. Transient by the spec's default rule. */
export class ResponseShapeError extends ClassifiedError {
  override readonly name = 'ResponseShapeError';
  readonly failureClass = 'transient';
  constructor(
    readonly call: CallSite,
    problems: string,
  ) {
    super(`${at(call)}Proxmox answered with data the app cannot use: ${problems}`);
  }
}

/** Whole MiB, or one decimal below 10 MiB: the sizes in AnswerTooLargeError's words. */
function mib(bytes: number): string {
  const m = bytes / (1024 * 1024);
  return `${m >= 10 || Number.isInteger(m) ? Math.round(m) : m.toFixed(1)} MiB`;
}

/**
 * Issue 22: an answer over its route's size bound (answer-size.ts). The read stopped at the bound and the connection
 * was dropped; nothing past it was kept. Transient, as a body the app cannot use is (spec entry 13's default): what
 * sent it may be a passing fault, but what to check is the URL.
 */
export class AnswerTooLargeError extends ClassifiedError {
  override readonly name = 'AnswerTooLargeError';
  readonly failureClass = 'transient';
  readonly hint =
    'Check that the cluster URL points at a Proxmox VE node itself (https://host:8006), not at a proxy or another service in between; if it does, that node\'s pveproxy is misbehaving: see its log (journalctl -u pveproxy).';
  constructor(
    readonly call: CallSite,
    readonly limitBytes: number,
    /** The Content-Length it declared, or the bytes read when the read stopped. */
    readonly sizeBytes: number,
  ) {
    super(
      `Proxmox's answer to ${call.method} ${call.path} was larger than ${mib(limitBytes)}; this is not what Proxmox sends. The app stopped reading it and closed the connection.`,
    );
  }
}

/**
 * A task ended with an exitstatus other than OK or WARNINGS, with Proxmox's text. `reason` is what the task's log tail
 * says beyond it (task-reasons.ts, issue 25): a reason no retry can change is permanent with a hint, else transient.
 */
export class TaskFailedError extends ClassifiedError {
  override readonly name = 'TaskFailedError';
  readonly failureClass: FailureClass;
  /** What to do, when the reason is known to need a change. */
  readonly hint: string | undefined;
  constructor(
    readonly upid: string,
    readonly exitstatus: string,
    readonly reason?: string,
  ) {
    super(`Task ${upid} failed: ${exitstatus}${reason ? ` (Proxmox's log: ${reason})` : ''}`);
    const judged = classifyTaskReason(reason);
    this.failureClass = judged.kind;
    this.hint = judged.hint;
  }
}

/** The app asked for something the client refuses to send (e.g. a file name that would break the multipart header). */
export class InvalidRequestError extends ClassifiedError {
  override readonly name = 'InvalidRequestError';
  readonly failureClass = 'permanent';
}

/**
 * The guest agent ran but refused the command: Proxmox answers 200 with
 * `{result: {error: {class, desc}}}` (qemu-server passes the agent's QMP
 * error through, PVE/API2/Qemu/Agent.pm). A command the agent does not know
 * or has disabled (`CommandNotFound`, also used by QEMU for a command turned
 * off with qemu-ga's block-rpcs/allow-rpcs; `CommandDisabled` in old agents;
 * "has been disabled" in the text of agents that said GenericError) will
 * never work until the guest's agent config changes: permanent. Anything
 * else the agent reports may pass: transient.
 */
export class AgentRefusedError extends ClassifiedError {
  override readonly name = 'AgentRefusedError';
  readonly failureClass: FailureClass;
  /** What to change, in plain words. */
  readonly hint: string;
  constructor(
    readonly agentClass: string,
    readonly desc: string,
    readonly call?: CallSite,
  ) {
    super(`agent refused: ${agentClass}: ${desc.replace(/\n+$/, '')}`);
    const disabled = agentClass === 'CommandNotFound' || agentClass === 'CommandDisabled' || /has been disabled/i.test(desc);
    this.failureClass = disabled ? 'permanent' : 'transient';
    const command = call ? `guest-${call.path.split('/').pop() ?? ''}` : 'the command';
    this.hint = disabled
      ? `Enable ${command} in the VM's guest agent config (remove it from block-rpcs, or add it to allow-rpcs, in /etc/qemu/qemu-ga.conf or the qemu-guest-agent service options), restart qemu-guest-agent, then try again.`
      : 'The guest agent could not answer this time; it is asked again. If it keeps failing, check qemu-guest-agent inside the VM.';
  }
}
