/**
 * Failures a user meets: each gets its class and a message that says what
 * happened on which call. Timeouts are shrunk; wall-time bounds are generous.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, fixtureMessage } from '../../../fixtures';
import { createPveClient } from '../../../main/core/pve/client';
import { classifyApiFailure, missingPrivilege } from '../../../main/core/pve/errors';
import { createMemoryLogger } from '../../../main/log/logger';
import { failureOf, SECRET, startHarness, TOKEN_ID, type Harness } from './harness';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});
async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  open.push(h);
  return h;
}

describe('answers that are failures', () => {
  it.each([
    ['err_auth_failed', 'permanent'],
    ['err_no_ticket', 'permanent'],
    ['err_forbidden', 'permanent'],
    ['err_config_missing', 'not-found'],
    ['err_config_locked', 'transient'],
    ['err_proxy_595', 'transient'],
    ['err_proxy_596', 'transient'],
  ] as const)('%s is %s with its text and the call it came from', async (name, expected) => {
    const h = await harness();
    h.server.route('GET', '/nodes/pv1-1/qemu/199999/config', { fixture: name });
    const err = await failureOf(h.client.vmConfig('pv1-1', 199999));
    expect(classifyApiFailure('get', err)).toBe(expected);
    expect(err.message).toBe(fixtureMessage(name));
    expect(String(err)).toContain(`GET /nodes/pv1-1/qemu/199999/config: ${fixture(name).status} ${fixtureMessage(name)}`);
  });

  it('a 403 says which privilege on which path is missing', async () => {
    const h = await harness();
    h.server.route('DELETE', /\/content\//, { fixture: 'err_forbidden_volume_delete' });
    const err = await failureOf(h.client.deleteVolume('pv1-1', 'local', 'local:iso/x.iso'));
    expect(missingPrivilege(err)).toEqual({ path: '/storage/local', privilege: 'Datastore.Allocate' });
  });

  it('a 2xx body the app cannot use is a clear error naming the call and the field', async () => {
    const h = await harness();
    h.server.route('GET', '/nodes/pv1-1/status', { status: 200, reason: 'OK', body: '{"data":{"pveversion":"x","cpu":"lots"}}' });
    const err = await failureOf(h.client.nodeStatus('pv1-1'));
    expect(err.name).toBe('ResponseShapeError');
    expect(err.message).toContain('GET /nodes/pv1-1/status');
    expect(err.message).toContain('cpu');
    expect(classifyApiFailure('check', err)).toBe('transient');
  });
});

describe('network faults', () => {
  it('a connection cut before the answer is transient "reset"', async () => {
    const h = await harness();
    h.server.route('GET', '/version', { fault: 'reset' });
    const err = await failureOf(h.client.version());
    expect(err).toMatchObject({ name: 'TransportError', failure: 'reset' });
    expect(err.message).toContain('GET /version');
    expect(classifyApiFailure('get', err)).toBe('transient');
  });

  it('a server that never answers runs into the request timeout', async () => {
    const h = await harness({ requestTimeoutMs: 300 });
    h.server.route('GET', '/version', { fault: 'hang' });
    const started = Date.now();
    const err = await failureOf(h.client.version());
    expect(err).toMatchObject({ name: 'TransportError', failure: 'timeout' });
    expect(err.message).toMatch(/did not answer within/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('nothing listening is transient "connect"', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const client = createPveClient({
      baseUrl: `https://127.0.0.1:${port}`,
      tls: { mode: 'system' },
      token: { kind: 'secret', tokenId: TOKEN_ID, secret: () => SECRET },
      logger: createMemoryLogger(),
    });
    open.push(client);
    const err = await failureOf(client.version());
    expect(err).toMatchObject({ name: 'TransportError', failure: 'connect' });
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('a server that accepts TCP but never completes the TLS handshake runs into the connect timeout', async () => {
    const accepted: Socket[] = [];
    const silent = createServer((s) => accepted.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    open.push({
      close: () => {
        for (const s of accepted) s.destroy();
        return new Promise<void>((r) => silent.close(() => r()));
      },
    });
    const client = createPveClient({
      baseUrl: `https://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      tls: { mode: 'system' },
      token: { kind: 'secret', tokenId: TOKEN_ID, secret: () => SECRET },
      connectTimeoutMs: 300,
      requestTimeoutMs: 10_000,
      logger: createMemoryLogger(),
    });
    open.push(client);
    const started = Date.now();
    const err = await failureOf(client.version());
    expect(err).toMatchObject({ name: 'TransportError', failure: 'connect' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('cancelling one request returns promptly and leaves the others alone', async () => {
    const h = await harness();
    h.server.route('GET', '/nodes/pv1-1/status', { fault: 'hang' });
    h.server.route('GET', '/version', { fixture: 'version' });
    const controller = new AbortController();
    const hanging = failureOf(h.client.nodeStatus('pv1-1', { signal: controller.signal }));
    const others = Promise.all([h.client.version(), h.client.version(), h.client.version()]);
    await new Promise((r) => setTimeout(r, 100));
    const cancelledAt = Date.now();
    controller.abort();
    const err = await hanging;
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    expect(err).toMatchObject({ name: 'TransportError', failure: 'aborted' });
    expect(classifyApiFailure('get', err)).toBe('transient');
    expect((await others).map((v) => v.version)).toEqual(['9.2.20', '9.2.20', '9.2.20']);
    expect((await h.client.version()).version).toBe('9.2.20');
  });

  it('an already-aborted signal sends nothing', async () => {
    const h = await harness();
    h.server.route('GET', '/version', { fixture: 'version' });
    const err = await failureOf(h.client.version({ signal: AbortSignal.abort() }));
    expect(err).toMatchObject({ failure: 'aborted' });
    expect(h.server.requests).toHaveLength(0);
  });
});

describe('logging', () => {
  it('one debug line per call with method, path template, status and duration', async () => {
    const h = await harness();
    h.server.route('GET', '/nodes/pv1-1/qemu/199999/config', { fixture: 'config_during_destroy' });
    h.server.route('GET', '/nodes/pv1-1/qemu/100/config', { fixture: 'err_config_missing' });
    await h.client.vmConfig('pv1-1', 199999);
    await failureOf(h.client.vmConfig('pv1-1', 100));
    const lines = h.log.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 'debug', method: 'GET', path: '/nodes/{node}/qemu/{vmid}/config', status: 200 });
    expect(lines[1]).toMatchObject({ status: 500 });
    expect(typeof lines[0]!.ms).toBe('number');
  });
});
