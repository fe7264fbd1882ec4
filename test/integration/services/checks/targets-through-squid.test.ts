/**
 * Issue 24, targets, through Debian's real Squid on loopback (its preset with
 * "require a username and password"): after the egress check, the app's
 * checks fetch a proxy's targets (its tag's, then its own) through the
 * proxy with its credentials, and the history keeps each fetch: the one
 * that answers with its status and timings, the one whose port refuses
 * connections with the classified reason. A target failing leaves the
 * check's own result alone.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { VmRow } from '../../../../shared/channels/inventory';
import { defaultSettings } from '../../../../shared/domain/profile';
import { createEventBus } from '../../../../main/ipc/event-bus';
import { createMemoryLogger } from '../../../../main/log/logger';
import { createCheckService, type CheckService } from '../../../../main/services/checks/service';
import { openHistoryDatabase, type HistoryDatabase } from '../../../../main/services/history/history-db';
import { createProxyCheckService } from '../../../../main/services/proxy-check/service';
import { newPassword } from '../../../../main/services/proxy-credentials/store';
import { freePort, missing, startSquid, type RealProxy, type TestCredentials } from '../../../support/real-proxy';

const right: TestCredentials = { username: 'egress', password: newPassword() };
const servers: Server[] = [];
let echoUrl: string;
let okUrl: string;
let refusingUrl: string;
/** The Proxy-Authorization each target saw: none may reach a target over plain http. */
const targetSaw: (string | undefined)[] = [];

beforeAll(async () => {
  const serve = async (answer: (path: string) => [number, string]) => {
    const server = createServer((req, res) => {
      targetSaw.push(req.headers['proxy-authorization']);
      const [status, body] = answer(req.url ?? '/');
      res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  echoUrl = `${await serve(() => [200, '127.0.0.1'])}/ip`;
  okUrl = `${await serve(() => [200, 'the site you need\n'])}/status`;
  // Nothing listens there: Squid cannot connect (its ERR_CONNECT_FAIL page).
  refusingUrl = `http://127.0.0.1:${await freePort()}/`;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

let proxy: RealProxy | undefined;
let history: HistoryDatabase | undefined;
let checks: CheckService | undefined;
afterEach(async () => {
  checks?.stop();
  history?.close();
  await proxy?.stop();
  proxy = history = checks = undefined;
});

describe.skipIf(missing('squid') !== undefined)("a proxy's targets through the real Squid", () => {
  it('records each target: the one that answers with status and timings, the refusing one with its reason', async () => {
    proxy = await startSquid({ credentials: right });
    console.log(`running ${proxy.version} on 127.0.0.1:${proxy.port}`);
    const logger = createMemoryLogger();
    const row: VmRow = {
      clusterId: 'home',
      vmid: 105,
      node: 'pve1',
      name: 'edge-1',
      state: 'running',
      status: 'running',
      owner: 'marked',
      tags: ['web'],
      address: '127.0.0.1',
    };
    const bus = createEventBus(logger);
    history = openHistoryDatabase({ file: ':memory:', logger });
    const proxyCheck = createProxyCheckService({
      lookup: (clusterId, vmid) => (clusterId === row.clusterId && vmid === row.vmid ? row : undefined),
      logger,
      defaultTargetUrl: echoUrl,
      timeoutMs: 5_000,
      credentials: { credentialsOf: async () => right },
    });
    checks = createCheckService({
      inventory: {
        snapshot: () => ({ revision: 1, clusters: [] }),
        vm: (clusterId, vmid) => (clusterId === row.clusterId && vmid === row.vmid ? row : undefined),
      },
      proxyCheck,
      history,
      bus,
      settings: () => defaultSettings,
      logger,
    });
    // The tag's target for every proxy tagged "web", the proxy's own beside it.
    checks.setTargets({ clusterId: 'home', tag: 'web', targets: [okUrl] });
    checks.setTargets({ clusterId: 'home', vmid: 105, targets: [refusingUrl] });
    expect(checks.targetsOf('home', 105)).toEqual([okUrl, refusingUrl]);

    // The windows hear `checks.targets` once the fetches are in the history.
    const recorded = new Promise<void>((resolve) => bus.subscribe((name) => name === 'checks.targets' && resolve()));
    const result = await checks.manualTest({ clusterId: 'home', vmid: 105, protocol: 'http', port: proxy.port });
    expect(result).toMatchObject({ reachable: true, egressAddress: '127.0.0.1' });
    await recorded;

    const [ok, refused, ...more] = history.targetChecks('home', 105, 0);
    expect(more).toEqual([]);
    expect(ok).toMatchObject({ url: okUrl, ok: true, httpStatus: 200, origin: 'manual' });
    expect(ok!.firstByteMs).toBeGreaterThanOrEqual(0);
    expect(ok!.totalMs).toBeGreaterThanOrEqual(ok!.firstByteMs!);
    expect(refused).toMatchObject({ url: refusingUrl, ok: false, httpStatus: 503, stage: 'request' });
    expect(refused!.problem).toMatch(/\(Squid\) could not reach 127\.0\.0\.1:\d+|could not connect|ERR_CONNECT_FAIL/);
    // The target that failed did not touch the check: one good check in the history.
    expect(history.checks('home', 105, 0).map((c) => c.ok)).toEqual([true]);
    // The drawer's view: each target with its last fetch, the tag's first.
    const drawer = checks.history({ clusterId: 'home', vmid: 105, hours: 1 });
    expect(drawer.targets?.map((t) => [t.url, t.from, t.recent.map((r) => r.ok)])).toEqual([
      [okUrl, [{ tag: 'web' }], [true]],
      [refusingUrl, [{ proxy: true }], [false]],
    ]);
    expect(drawer).toMatchObject({ ownTargets: [refusingUrl], tagTargets: [{ tag: 'web', urls: [okUrl] }] });
    // The credentials went to Squid only, never on to a target.
    expect(targetSaw.filter((h) => h !== undefined)).toEqual([]);
  });

  it('refuses a target list in words before anything is saved', () => {
    const logger = createMemoryLogger();
    history = openHistoryDatabase({ file: ':memory:', logger });
    checks = createCheckService({
      inventory: { snapshot: () => ({ revision: 1, clusters: [] }), vm: () => undefined },
      proxyCheck: { test: () => Promise.reject(new Error('not called')) },
      history,
      bus: createEventBus(logger),
      settings: () => defaultSettings,
      logger,
    });
    expect(() => checks!.setTargets({ clusterId: 'home', vmid: 105, targets: ['https://me:pw@example.com/'] })).toThrow(
      /must not hold a user name or password.*The targets were not changed\./,
    );
    expect(checks.targetsOf('home', 105)).toEqual([]);
  });
});
