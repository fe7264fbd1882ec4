/** Shared set-up for client tests: a replay server and a client that trusts its CA. */
import { createMemoryLogger } from '../../../main/log/logger';
import { createPveClient, type PveClient } from '../../../main/core/pve/client';
import type { TlsChoice } from '../../../main/core/pve/tls-choice';
import type { TokenSource } from '../../../main/core/pve/token';
import { startReplayServer, type ReplayOptions, type ReplayServer } from '../../support/replay-server';

export const TOKEN_ID = 'proxy-operator@pve!operator';
export const SECRET = '6f1c2a9e-0b7d-4e55-9c1a-5d2f8e7b3a10';

export interface Harness {
  server: ReplayServer;
  client: PveClient;
  log: ReturnType<typeof createMemoryLogger>;
  close(): Promise<void>;
}

export async function startHarness(
  opts: { replay?: ReplayOptions; tls?: TlsChoice; token?: TokenSource; requestTimeoutMs?: number } = {},
): Promise<Harness> {
  const server = await startReplayServer(opts.replay);
  const log = createMemoryLogger('debug');
  const client = createPveClient({
    baseUrl: server.baseUrl,
    tls: opts.tls ?? { mode: 'ca', caPem: server.ca!.certPem },
    token: opts.token ?? { kind: 'secret', tokenId: TOKEN_ID, secret: () => SECRET },
    requestTimeoutMs: opts.requestTimeoutMs,
    logger: log,
  });
  return {
    server,
    client,
    log,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** The rejection of `p`, failing the test if it resolves. */
export async function failureOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
