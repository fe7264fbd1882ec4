/**
 * Issue 22: every answer has a size bound per route (main/core/pve/answer-size.ts). An endless answer is refused in
 * words, the connection is dropped, and what the server managed to write stops near the bound: counted in bytes the
 * simulator wrote, not in time.
 */
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ANSWER_BOUNDS, DEFAULT_ANSWER_BOUND, readBounded } from '../../../main/core/pve/answer-size';
import { explainPveFailure } from '../../../main/core/pve/explain';
import { AnswerTooLargeError } from '../../../main/core/pve/failures';
import { toProviderError } from '../../../main/core/provider/rules/classify';
import { startSimCluster, type SimCluster } from '../../support/sim-cluster';
import { until } from '../../support/until';

const MiB = 1024 * 1024;
/** What may sit in the socket buffers of both ends (loopback TCP autotuning, TLS records) when the read stops. */
const IN_FLIGHT = 16 * MiB;

let t: SimCluster | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('answer size bound', () => {
  it('refuses an endless /cluster/resources in words, drops the connection, and stops reading near its bound', async () => {
    t = await startSimCluster({ dataset: 'minimal' });
    t.sim.faults.inject({ route: '/cluster/resources' }, { kind: 'endless' });
    const bound = ANSWER_BOUNDS['/cluster/resources']!.bytes;
    const err = await t.client.clusterResources('vm').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AnswerTooLargeError);
    expect((err as Error).message).toBe(
      "Proxmox's answer to GET /cluster/resources was larger than 32 MiB; this is not what Proxmox sends. The app stopped reading it and closed the connection.",
    );
    const explained = explainPveFailure('list', err);
    expect(explained.kind).toBe('transient');
    expect(explained.hint).toMatch(/^Check that the cluster URL points at a Proxmox VE node itself/);
    expect(toProviderError('list', err).hint).toBe(explained.hint);
    const record = t.sim.requests.records.find((r) => r.route === '/cluster/resources')!;
    await until(() => record.cut === true);
    const written = record.bytesSent!;
    // Let any write already queued land, then check nothing more went: the connection is gone.
    await new Promise((r) => setTimeout(r, 200));
    expect(record.bytesSent).toBe(written);
    expect(written).toBeGreaterThan(bound);
    expect(written).toBeLessThan(bound + IN_FLIGHT);
  });

  it('bounds every route: one not named gets the default bound', async () => {
    t = await startSimCluster({ dataset: 'minimal' });
    t.sim.faults.inject({ route: '/version' }, { kind: 'endless' });
    await expect(t.client.version()).rejects.toThrow(
      "Proxmox's answer to GET /version was larger than 8 MiB; this is not what Proxmox sends.",
    );
    const record = t.sim.requests.records.find((r) => r.route === '/version')!;
    await until(() => record.cut === true);
    expect(record.bytesSent).toBeLessThan(DEFAULT_ANSWER_BOUND.bytes + IN_FLIGHT);
    // The client still works: the next call gets a fresh connection and its answer.
    t.sim.faults.clear();
    await expect(t.client.version()).resolves.toMatchObject({ version: expect.any(String) });
  });

  it('refuses a declared Content-Length over the bound before reading a byte', async () => {
    let pulled = 0;
    const body = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(1024));
      },
    });
    await expect(readBounded(body, String(64 * MiB), 8 * MiB, { method: 'GET', path: '/version' })).rejects.toBeInstanceOf(
      AnswerTooLargeError,
    );
    expect(body.destroyed).toBe(true);
    expect(pulled).toBe(0);
  });

  it('reads an answer at its bound whole', async () => {
    const text = 'x'.repeat(1024);
    const body = Readable.from([Buffer.from(text), Buffer.from(text)]);
    await expect(readBounded(body, undefined, 2048, { method: 'GET', path: '/version' })).resolves.toBe(text + text);
  });
});
