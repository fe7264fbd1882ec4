/**
 * A sentinel cloud-init text and a sentinel token secret, carried through a
 * whole life cycle over the simulator (successes and failures of every
 * kind), never show up in an error, a log line (client, provider and
 * simulator, at debug level) or the simulator's request log. Only the seed
 * upload carries the cloud-init, and the uploaded ISO is checked to hold it
 * so the test cannot pass by losing it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProviderError, type CreateRequest } from '../../../main/core';
import { SEED_STORAGE } from '../../../main/simulator';
import { OPERATOR_ROOT_PRIVILEGES, SEED_STORAGE_PRIVILEGES } from '../../../main/simulator/auth';
import { simProvider, variantProvider, type SimProvider } from './sim-provider';

const CLOUD_INIT_SENTINEL = 'SENTINEL-cl0ud-1nit-7f3e9a';
const SECRET_SENTINEL = 'SENTINEL-t0ken-s3cret-4b8d2c';
const WRONG_SECRET_SENTINEL = 'SENTINEL-wr0ng-s3cret-9a1f0e';
const UPLOAD_ROUTE = '/nodes/{node}/storage/{storage}/upload';

let env: SimProvider;
beforeAll(async () => {
  env = await simProvider({
    timeScale: 0.001,
    agentDelayMs: 0,
    tokenName: 'sentinel',
    tokens: {
      sentinel: {
        tokenId: 'proxy-operator@pve!sentinel',
        secret: SECRET_SENTINEL,
        acl: { '/': OPERATOR_ROOT_PRIVILEGES, [`/storage/${SEED_STORAGE}`]: SEED_STORAGE_PRIVILEGES },
      },
    },
  });
});
afterAll(async () => env?.close());

const request = (n: number): CreateRequest => ({
  uid: `5e17e1a1-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `proxy-sentinel-${n}`,
  placement: { machineType: 'big', image: 'debian-13' },
  cloudInit: `#cloud-config\nwrite_files:\n  - path: /etc/sentinel\n    content: ${CLOUD_INIT_SENTINEL}\n`,
});

describe('sentinels over the simulator', () => {
  it('the cloud-init text and the token secret reach no error, log line or request record but the upload', async () => {
    const thrown: unknown[] = [];
    const keep = (p: Promise<unknown>) => p.catch((e: unknown) => void thrown.push(e));
    const variantLogs: string[][] = [];

    await env.provider.check();
    const id = await env.provider.create(request(1));
    await env.provider.get(id);
    await env.provider.listByTag();

    // Failures at each kind of step: a refused upload, a refused config write, a failed task, a vanished VM.
    env.sim.faults.inject({ route: UPLOAD_ROUTE }, { kind: 'error', fixture: 'err_upload_bad_name' }, 1);
    await keep(env.provider.create(request(2)));
    env.sim.faults.inject({ method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/config' }, { kind: 'error', fixture: 'err_bad_param' }, 1);
    await keep(env.provider.create(request(3)));
    env.sim.faults.failTask({ type: 'qmstart' }, 'task_status_stopped_error', 1);
    await keep(env.provider.create(request(4)));
    // A cut connection (not on the lookup: a create may take a listing another create read just before, lookup.ts).
    env.sim.faults.inject({ method: 'PUT', route: '/nodes/{node}/qemu/{vmid}/resize' }, { kind: 'reset' }, 1);
    await keep(env.provider.create(request(5)));
    await keep(env.provider.get('vms/not-an-id'));

    // The wrong secret of a 401 is no more quotable than the right one.
    const wrong = variantProvider(env.sim, {
      token: { kind: 'secret', tokenId: env.sim.tokens.sentinel!.tokenId, secret: () => WRONG_SECRET_SENTINEL },
    });
    await keep(wrong.provider.create(request(6)));
    await keep(wrong.provider.get(id));
    variantLogs.push(wrong.logger.lines);
    await wrong.close();

    await env.provider.delete(id);
    expect(thrown.length).toBe(7);
    expect(thrown.every((e) => isProviderError(e))).toBe(true);

    const errors = thrown.map((e) => {
      const err = e as Error & { hint?: string };
      return [err.message, err.hint, String(err), err.stack, JSON.stringify(err)].join('\n');
    });
    const logs = [...env.logger.lines, ...variantLogs.flat()];
    const records = env.sim.requests.records.filter((r) => r.route !== UPLOAD_ROUTE).map((r) => JSON.stringify(r));
    expect(logs.length).toBeGreaterThan(50);
    for (const sentinel of [CLOUD_INIT_SENTINEL, SECRET_SENTINEL, WRONG_SECRET_SENTINEL]) {
      expect(errors.filter((t) => t.includes(sentinel))).toEqual([]);
      expect(logs.filter((t) => t.includes(sentinel))).toEqual([]);
      expect(records.filter((t) => t.includes(sentinel))).toEqual([]);
    }

    // The upload did carry the user-data: the ISO the simulator stored holds it.
    const iso = env.sim.state.iso('pv1-1', SEED_STORAGE, `${request(3).name}-seed.iso`);
    expect(Buffer.from(iso!.bytes).toString('latin1')).toContain(CLOUD_INIT_SENTINEL);
  });
});
