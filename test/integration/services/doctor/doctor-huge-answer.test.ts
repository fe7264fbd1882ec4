/**
 * The doctor's first contact (GET /version without a token) talks to any URL
 * the user typed, before it is known to be Proxmox: a server there that
 * answers with hundreds of MiB is read only as far as an error needs (the
 * rest never fetched: the server sees the connection closed long before its
 * body ends), and the answer is still judged by its status.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../../../main/core/pve/errors';
import { anonymousVersion } from '../../../../main/services/doctor/anonymous-version';
import { createSelfSigned } from '../../../../main/tls/certificates';
import { endlessAnswer, type Streamed } from '../../../support/endless-body';

const MiB = 2 ** 20;
const streams: Streamed[] = [];
let server: Server;
let url: string;
let fingerprint: string;

beforeAll(async () => {
  const cert = await createSelfSigned({ commonName: 'huge.invalid', ipAddresses: ['127.0.0.1'] });
  fingerprint = cert.fingerprint;
  server = createServer({ key: cert.keyPem, cert: cert.certPem }, endlessAnswer(401, 300 * MiB, streams, 'application/json'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

describe('the first contact with a server whose answer never ends', () => {
  it('reads no more than the bound of its 300 MiB, and still says it answered 401', async () => {
    const failed = await anonymousVersion(url, { mode: 'pin', fingerprint }, 20_000).catch((e: unknown) => e);
    expect(isApiError(failed) && failed.status).toBe(401);
    expect(streams).toHaveLength(1);
    expect(streams[0]!.ended).toBe(false);
    expect(streams[0]!.written).toBeLessThan(16 * MiB);
  });
});
