import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../../../../main/ipc/event-bus';
import { createLogger, createMemoryLogger } from '../../../../main/log/logger';
import { doctorHandlers, profileFromDirectory, runDoctor } from '../../../../main/services/doctor';
import { OPERATOR_ROOT_PRIVILEGES, SEED_STORAGE_PRIVILEGES } from '../../../../main/simulator/auth';
import { startSimulator, type Simulator } from '../../../../main/simulator';
import { DoctorReport, DoctorRunInput, type DoctorProgress } from '../../../../shared/channels/doctor';
import { startSimCluster } from '../../../support/sim-cluster';

const SENTINEL = 'SENTINEL-doctor-5f0c2a9e-never-shown';
const logger = createLogger({ sinks: [] });
let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({
    timeScale: 0.001,
    tokens: {
      sentinel: {
        tokenId: 'proxy-operator@pve!sentinel',
        secret: SENTINEL,
        acl: { '/': OPERATOR_ROOT_PRIVILEGES, '/storage/proxy-seeds': SEED_STORAGE_PRIVILEGES },
      },
    },
  });
});
afterAll(() => sim.close());

const pin = () => ({ mode: 'pin' as const, fingerprint: sim.fingerprint });
const ctx = () => ({ signal: new AbortController().signal, transport: 'test' });

describe('connect doctor: the secret never comes back (sentinel)', () => {
  it('not in the report, the log or the progress events: on success, on a refused token and on an untrusted certificate', async () => {
    const log = createMemoryLogger('debug');
    const bus = createEventBus(log);
    const published: unknown[] = [];
    bus.subscribe((name, payload) => published.push({ name, payload }));
    const handler = doctorHandlers({ logger: log, bus })['doctor.run'];
    const tokenId = 'proxy-operator@pve!sentinel';
    const runs = [
      { url: sim.url, tokenId, secret: SENTINEL, tls: pin(), runId: 'r1' },
      { url: sim.url, tokenId: 'proxy-operator@pve!unknown', secret: SENTINEL, tls: pin(), runId: 'r2' },
      { url: sim.url, tokenId, secret: SENTINEL, runId: 'r3' },
    ];
    const reports = [];
    for (const input of runs) reports.push(DoctorReport.parse(await handler(DoctorRunInput.parse(input), ctx())));
    expect(reports.map((r) => [r.ready, r.token.status])).toEqual([
      [true, 'ok'],
      [false, 'fail'],
      [false, 'skipped'],
    ]);
    const everything = JSON.stringify({ reports, published, lines: log.lines });
    expect(everything).not.toContain(SENTINEL);
    expect(log.lines.length).toBeGreaterThan(0);
    expect(reports[0]!.suggestedProfile.tokenId).toBe(tokenId);
  });
});

describe('connect doctor: a run', () => {
  it('reports progress per step, in order, when given a runId', async () => {
    const bus = createEventBus(logger);
    const events: DoctorProgress[] = [];
    bus.subscribe((name, payload) => {
      if (name === 'doctor.progress') events.push(payload as DoctorProgress);
    });
    const { tokenId, secret } = sim.tokens.operator!;
    await doctorHandlers({ logger, bus })['doctor.run']({ url: sim.url, tokenId, secret, tls: pin(), runId: 'run-7' }, ctx());
    expect(events.map((e) => `${e.step}:${e.state}${e.status ? `:${e.status}` : ''}`)).toEqual([
      'tls:running',
      'tls:done:ok',
      'token:running',
      'token:done:ok',
      'discovery:running',
      'discovery:done:ok',
      'privileges:running',
      'privileges:done:ok',
    ]);
    expect(new Set(events.map((e) => e.runId))).toEqual(new Set(['run-7']));
  });

  it('cancelled while Proxmox does not answer: stops at once with a plain transient error', async () => {
    const undo = sim.faults.inject({ route: '/nodes' }, { kind: 'hang' });
    try {
      const controller = new AbortController();
      const { tokenId, secret } = sim.tokens.operator!;
      const running = runDoctor({ url: sim.url, tokenId, secret, tls: pin() }, { logger, signal: controller.signal });
      setTimeout(() => controller.abort(), 300);
      await expect(running).rejects.toMatchObject({ kind: 'transient', message: 'The connection check was cancelled.' });
    } finally {
      undo();
    }
  });

  it('a whole-run budget bounds a hanging node: a transient error that says so', async () => {
    const undo = sim.faults.inject({ route: '/nodes' }, { kind: 'hang' });
    try {
      const { tokenId, secret } = sim.tokens.operator!;
      await expect(runDoctor({ url: sim.url, tokenId, secret, tls: pin() }, { logger, runTimeoutMs: 500 })).rejects.toMatchObject({
        kind: 'transient',
        message: expect.stringContaining('took longer than'),
      });
    } finally {
      undo();
    }
  });

  it('the IPC input refuses what a renderer must not send: unknown fields, a malformed token id, a huge secret, no URL or profile', () => {
    expect(DoctorRunInput.safeParse({ url: sim.url, extra: 1 }).success).toBe(false);
    expect(DoctorRunInput.safeParse({ url: sim.url, tokenId: 'root' }).success).toBe(false);
    expect(DoctorRunInput.safeParse({ url: sim.url, secret: 'x'.repeat(513) }).success).toBe(false);
    expect(DoctorRunInput.safeParse({}).success).toBe(false);
    expect(DoctorRunInput.safeParse({ url: sim.url, tls: { mode: 'ca' } }).success).toBe(false);
    expect(DoctorRunInput.safeParse({ url: sim.url, tls: { mode: 'system', fingerprint: 'AA' } }).success).toBe(false);
  });

  it('a URL that is not https://host:port is an invalid-input error on the url field', async () => {
    await expect(runDoctor({ url: 'http://pve.example:8006' }, { logger })).rejects.toMatchObject({ kind: 'invalid-input', field: 'url' });
    await expect(runDoctor({ url: sim.url, tls: { mode: 'pin', fingerprint: 'abc' } }, { logger })).rejects.toMatchObject({
      kind: 'invalid-input',
      field: 'tls.fingerprint',
    });
  });
});

describe('connect doctor: rerun on a saved profile (ClusterDirectory)', () => {
  it("uses the cluster's own client and the profile's choices; an unknown profile is not-found", async () => {
    const sc = await startSimCluster({ tokenName: 'operator', profile: { bridge: 'vmbr0' } });
    try {
      const resolveProfile = profileFromDirectory(sc.directory);
      const report = await runDoctor({ profileId: 'sim' }, { logger, resolveProfile });
      expect(report.ready).toBe(true);
      expect(report.tls.data.choice).toEqual({ mode: 'ca', caPem: sc.sim.caPem });
      expect(report.token.data.tokenId).toBe(sc.sim.tokens.operator!.tokenId);
      expect(report.suggestedProfile).toMatchObject({ isoStorage: 'proxy-seeds', bridge: 'vmbr0', nodes: ['pv1-1'] });
      expect(report.suggestedProfile.isoStorageReason).toMatch(/^the profile's choice/);
      await expect(runDoctor({ profileId: 'gone' }, { logger, resolveProfile })).rejects.toMatchObject({ kind: 'not-found' });
    } finally {
      await sc.close();
    }
  });
});
