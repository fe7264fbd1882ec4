/**
 * One deadline for a whole proxy check. Every wait (the TCP connect, the
 * proxy's handshake, the TLS handshake with the target, the response
 * headers, the body) listens to the same signal, and the check notes which
 * step it is in, so that when the time runs out the result can say which
 * step did not finish.
 */

/** The steps of a check, in order; classify.ts has, for each, how a failure in it is told. */
export type Phase =
  /** The TCP connection to the proxy's port. */
  | 'proxy-connect'
  /** SOCKS5: the greeting and the proxy's choice of method. */
  | 'socks5-greeting'
  /** SOCKS5: the CONNECT request and the proxy's reply, which comes once it has reached the target. */
  | 'socks5-connect'
  /** HTTP proxy: the CONNECT request and the proxy's answer, which comes once it has reached the target. */
  | 'http-connect'
  /** The TLS handshake with the target, through the tunnel. */
  | 'tls'
  /** The request sent; waiting for the response headers. */
  | 'headers'
  /** Headers received; reading the body. */
  | 'body';

export class Deadline {
  /** Aborts when the time runs out or the caller cancels, whichever comes first. */
  readonly signal: AbortSignal;
  phase: Phase = 'proxy-connect';
  /** Set once the signal aborted: the step in progress at that moment, and whether it was the caller (not the clock). */
  stopped: { phase: Phase; cancelled: boolean } | undefined;

  constructor(
    readonly ms: number,
    caller?: AbortSignal,
  ) {
    const clock = AbortSignal.timeout(ms);
    this.signal = caller ? AbortSignal.any([caller, clock]) : clock;
    const note = () => {
      this.stopped = { phase: this.phase, cancelled: !clock.aborted };
    };
    if (this.signal.aborted) note();
    else this.signal.addEventListener('abort', note, { once: true });
  }

  enter(phase: Phase): void {
    if (!this.stopped) this.phase = phase;
  }

  /** Settles with `work`, or rejects with the abort reason as soon as the deadline passes, whatever `work` still waits for. */
  race<T>(work: Promise<T>): Promise<T> {
    const { signal } = this;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }
}

/** "1 s", "1.5 s", "500 ms": the timeout as the messages show it. */
export function formatTimeout(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}
