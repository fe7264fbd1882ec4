/**
 * Issue 22 item 12: a failed check is classed by the step it reached and how
 * that step ended, from one table. Every way a close reaches this computer
 * (end of stream, reset, broken pipe, undici's own words for them) gives
 * the same answer at a step; a close before any byte from the proxy is a
 * refusal or a drop, one after it the proxy stopping part way; bytes that
 * are not the protocol are "check the protocol", and only those are permanent.
 */
import { errors } from 'undici';
import { describe, expect, it } from 'vitest';
import type { ProxyProtocol } from '../../../../shared/channels/proxy-check';
import { endingOf, problemOf, type Reached } from '../../../../main/services/proxy-check/classify';
import type { Phase } from '../../../../main/services/proxy-check/deadline';
import { ConnectionLost } from '../../../../main/services/proxy-check/dispatchers';
import { HttpConnectError } from '../../../../main/services/proxy-check/http-connect';
import { ClosedEarly } from '../../../../main/services/proxy-check/read-bytes';
import { Socks5Error } from '../../../../main/services/proxy-check/socks5';

const where = '10.0.0.5:1080';
const target = 'api.ipify.org';
const coded = (code: string) => Object.assign(new Error(`read ${code}`), { code });

/** Each way a closed connection shows up, from the handshake's reads to undici's parser. */
const closes: [string, unknown][] = [
  ['the end of the stream during a read', new ClosedEarly()],
  ['a reset', coded('ECONNRESET')],
  ['a broken pipe on write', coded('EPIPE')],
  ["undici's 'other side closed'", new errors.SocketError('other side closed')],
  ['a body shorter than its content-length', new errors.ResponseContentLengthMismatchError()],
  ['a reconnect refused after a close', new ConnectionLost(new errors.SocketError('other side closed'))],
];

/** Each way bytes that are not the protocol show up. */
const garbles: [string, unknown][] = [
  ['a SOCKS5 answer with another version', new Socks5Error('not-socks5', 'x')],
  ['a CONNECT answer that is not HTTP', new HttpConnectError('not-http', 'x')],
  ["undici's parser", new errors.HTTPParserError('Response does not match the HTTP/1.1 protocol')],
  ['bytes before the request was sent', new errors.SocketError('bad response')],
  ['a reconnect refused after bytes before the request', new ConnectionLost(new errors.SocketError('bad response'))],
];

const dropped = `The proxy at ${where} accepted the connection, then closed it without answering: it refused this computer or dropped the connection.`;
const notSocks5 = `${where} accepted the connection but did not answer as a SOCKS5 proxy.`;
const notHttpProxy = `${where} accepted the connection but did not answer as an HTTP proxy.`;
const notHttpThrough = `The proxy at ${where} opened the way to ${target}, but what came back through it is not an HTTP answer.`;

type Row = [Phase, ProxyProtocol, boolean, boolean, string, string];
/** step reached, protocol, through a tunnel, any byte from the proxy → [kind stage message] when it closed, when it garbled. */
const table: Row[] = [
  ['socks5-greeting', 'socks5', true, false, `transient handshake ${dropped}`, `permanent handshake ${notSocks5}`],
  [
    'socks5-greeting',
    'socks5',
    true,
    true,
    `transient handshake The SOCKS5 proxy at ${where} stopped part way: it began answering the greeting, then closed the connection.`,
    `permanent handshake ${notSocks5}`,
  ],
  [
    'socks5-connect',
    'socks5',
    true,
    true,
    `transient handshake The SOCKS5 proxy at ${where} stopped part way: it answered the greeting, then closed the connection before it reported a connection to ${target}.`,
    `permanent handshake ${notSocks5}`,
  ],
  ['http-connect', 'http', true, false, `transient handshake ${dropped}`, `permanent handshake ${notHttpProxy}`],
  [
    'http-connect',
    'http',
    true,
    true,
    `transient handshake The proxy at ${where} stopped part way: it began answering the CONNECT request for ${target}, then closed the connection.`,
    `permanent handshake ${notHttpProxy}`,
  ],
  [
    'tls',
    'socks5',
    true,
    true,
    `transient request The proxy at ${where} stopped part way: it opened the way to ${target}, then closed the connection during the TLS handshake.`,
    `permanent request ${notHttpThrough}`,
  ],
  ['headers', 'http', false, false, `transient handshake ${dropped}`, `permanent handshake ${notHttpProxy}`],
  [
    'headers',
    'http',
    false,
    true,
    `transient request The proxy at ${where} stopped part way: it began answering the request for ${target}, then closed the connection.`,
    `permanent handshake ${notHttpProxy}`,
  ],
  [
    'headers',
    'socks5',
    true,
    true,
    `transient request The proxy at ${where} stopped part way: it opened the way to ${target}, then closed the connection before ${target} answered.`,
    `permanent request ${notHttpThrough}`,
  ],
  [
    'body',
    'http',
    false,
    true,
    `transient request The proxy at ${where} stopped part way: ${target} had begun answering through it when the connection closed.`,
    `permanent handshake ${notHttpProxy}`,
  ],
  [
    'body',
    'socks5',
    true,
    true,
    `transient request The proxy at ${where} stopped part way: ${target} had begun answering through it when the connection closed.`,
    `permanent request ${notHttpThrough}`,
  ],
];

const told = (e: unknown, reached: Reached) => {
  const p = problemOf(e, reached, where, target);
  return `${p.kind} ${p.stage} ${p.message}`;
};

describe('the class of a failed check, by the step it reached', () => {
  it.each(closes)('sees %s as a close', (_how, e) => expect(endingOf(e)).toBe('closed'));
  it.each(garbles)('sees %s as bytes that are not the protocol', (_how, e) => expect(endingOf(e)).toBe('garbled'));

  describe.each(table)('at %s (%s, tunnel %s, proxy answered %s)', (phase, protocol, tunnel, answered, closed, garbled) => {
    const reached: Reached = { phase, protocol, tunnel, answered };
    it.each(closes)('a close by %s', (_how, e) => expect(told(e, reached)).toBe(closed));
    it.each(garbles)('bytes that are not the protocol, by %s', (_how, e) => {
      // A step only garbles in its own protocol: a SOCKS5 error at an HTTP step cannot happen.
      if (e instanceof Socks5Error && protocol === 'http') return;
      if (e instanceof HttpConnectError && protocol === 'socks5') return;
      expect(told(e, reached)).toBe(garbled);
    });
  });

  it('tells every close-part-way and every drop as transient, with a hint on what to do', () => {
    for (const [phase, protocol, tunnel, answered] of table) {
      const p = problemOf(new ClosedEarly(), { phase, protocol, tunnel, answered }, where, target);
      expect(p.kind).toBe('transient');
      expect(p.hint).toMatch(/Check|check/);
    }
  });

  it('hands a failed TCP connect to the connect words, whatever the error', () => {
    const reached: Reached = { phase: 'proxy-connect', protocol: 'socks5', tunnel: true, answered: false };
    expect(problemOf(coded('ECONNREFUSED'), reached, where, target)).toMatchObject({
      kind: 'transient',
      stage: 'connect',
      message: `Nothing listens on ${where}: the connection was refused.`,
    });
    expect(problemOf(coded('ECONNRESET'), reached, where, target).stage).toBe('connect');
  });

  it("keeps a proxy's own answers apart from the table: credentials wanted, the target refused", () => {
    const reached: Reached = { phase: 'socks5-connect', protocol: 'socks5', tunnel: true, answered: true };
    expect(problemOf(new Socks5Error('auth-required', 'x'), { ...reached, phase: 'socks5-greeting' }, where, target)).toMatchObject({
      kind: 'permanent',
      message: `The proxy at ${where} asks for a username and password, and the app keeps none for this proxy.`,
    });
    // Issue 24: credentials offered and refused are their own words, never "no answer".
    expect(problemOf(new Socks5Error('auth-refused', 'x'), { ...reached, phase: 'socks5-greeting' }, where, target)).toMatchObject({
      kind: 'permanent',
      stage: 'handshake',
      message: `The proxy at ${where} refused the username and password the app keeps for it.`,
    });
    expect(
      problemOf(
        new Socks5Error('refused-target', 'the SOCKS5 proxy could not connect to x:80: connection refused'),
        reached,
        where,
        target,
      ),
    ).toMatchObject({
      kind: 'transient',
      stage: 'request',
      message: 'The proxy works, but the SOCKS5 proxy could not connect to x:80: connection refused.',
    });
  });
});
