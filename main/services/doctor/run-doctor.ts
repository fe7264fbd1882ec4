/**
 * The connect doctor: TLS, then the token, then discovery, then
 * privileges, each only when the step before passed, so a token is never
 * sent to a certificate the admin has not trusted. Usable as a plain
 * function (the task manager runs it as a task) and behind `doctor.run`.
 */
import { createPveClient, type PveApi, type PveClient, readToken } from '../../core';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import type { DoctorReport, DoctorRunInput, DoctorStep, SuggestedProfile } from '../../../shared/channels/doctor';
import { resolveConnection, type ResolvedConnection } from './connection';
import { discover, type DiscoveryOutcome } from './discovery';
import type { DoctorProgressListener, ResolveProfileConnection } from './ports';
import { checkPrivileges } from './privileges';
import { skipped, type SectionBase } from './section';
import { RECOMMENDED_SEED_STORAGE } from './seed-storage';
import { checkTls } from './tls-check';
import { checkToken } from './token-check';
import { DEFAULT_VMID_RANGE } from './vmid-room';

export interface RunDoctorOptions {
  logger: Logger;
  signal?: AbortSignal;
  onProgress?: DoctorProgressListener;
  /** Resolves `profileId` runs; without it, only URL-and-token runs work. */
  resolveProfile?: ResolveProfileConnection;
  /** Budget of the TLS handshake and of each request (default 10 s). */
  callTimeoutMs?: number;
  /** Budget of the whole run (default 60 s). */
  runTimeoutMs?: number;
}

const ready = (s: SectionBase) => (s.status === 'ok' || s.status === 'warn') && !s.blocking;

async function step<T extends SectionBase>(
  name: DoctorStep,
  onProgress: DoctorProgressListener | undefined,
  run: () => Promise<T>,
): Promise<T> {
  onProgress?.({ step: name, state: 'running' });
  const section = await run();
  onProgress?.({ step: name, state: 'done', status: section.status });
  return section;
}

/** The token id for the report and the pveum commands; a token file is read for it (and its secret registered). */
async function tokenIdOf(conn: ResolvedConnection): Promise<string | undefined> {
  if (conn.tokenId) return conn.tokenId;
  if (conn.token?.kind !== 'file') return conn.token?.tokenId;
  try {
    return (await readToken(conn.token)).tokenId;
  } catch {
    return undefined; // the token step reports the file's problem
  }
}

function clientFor(conn: ResolvedConnection, options: RunDoctorOptions, timeoutMs: number): PveClient | undefined {
  if (!conn.token || !conn.tls) return undefined;
  return createPveClient({
    baseUrl: conn.url,
    tls: conn.tls,
    token: conn.token,
    requestTimeoutMs: timeoutMs,
    connectTimeoutMs: timeoutMs,
    logger: options.logger,
  });
}

function emptySuggestion(conn: ResolvedConnection): Omit<SuggestedProfile, 'url' | 'tls' | 'tokenId'> {
  return { nodes: conn.nodes ?? [], templates: {}, vmidRange: conn.vmidRange ?? { ...DEFAULT_VMID_RANGE } };
}

function stopped(options: RunDoctorOptions, runTimeoutMs: number): AppError {
  return options.signal?.aborted
    ? new AppError('transient', 'The connection check was cancelled.', 'Run it again when you are ready.')
    : new AppError(
        'transient',
        `The connection check took longer than ${Math.round(runTimeoutMs / 1000)} s and was stopped.`,
        'Check that the node answers (it may be overloaded), then run it again.',
      );
}

export async function runDoctor(input: DoctorRunInput, options: RunDoctorOptions): Promise<DoctorReport> {
  const log = options.logger.child({ part: 'doctor' });
  const callTimeoutMs = options.callTimeoutMs ?? 10_000;
  const runTimeoutMs = options.runTimeoutMs ?? 60_000;
  const deadline = AbortSignal.timeout(runTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const conn = await resolveConnection(input, options.resolveProfile);
  const tokenId = await tokenIdOf(conn);
  const progress = options.onProgress;
  let client: PveClient | undefined;
  try {
    const tls = await step('tls', progress, async () => {
      const outcome = await checkTls(conn.url, conn.tls, { timeoutMs: callTimeoutMs, signal });
      conn.tls = outcome.choice;
      return outcome.section;
    });
    let api: PveApi | undefined;
    if (conn.tls) api = conn.reuseApi ? conn.api : (client = clientFor(conn, options, callTimeoutMs));
    const token = conn.tls
      ? await step('token', progress, () => checkToken({ api, tokenId, url: conn.url, tls: conn.tls!, timeoutMs: callTimeoutMs, signal }))
      : { ...skipped('the certificate is not trusted yet, so no token was sent'), data: tokenId ? { tokenId } : {} };
    let found: DiscoveryOutcome | undefined;
    if (api && ready(token)) found = await stepOutcome('discovery', progress, () => discover(api, conn, signal));
    const discovery = found?.section ?? { ...skipped('the token has not passed'), data: emptyDiscovery(conn) };
    // Without a usable seed storage, the privileges are still worth knowing: check the one the profile names or the guide recommends.
    const seed = found?.seedStorage?.storage ?? conn.isoStorage ?? RECOMMENDED_SEED_STORAGE;
    const privileges =
      api && found
        ? await step('privileges', progress, () => checkPrivileges(api, tokenId ?? '<user>@<realm>!<token>', seed, signal))
        : { ...skipped('discovery did not run'), data: { checks: [], commands: [] } };
    const report: DoctorReport = {
      url: conn.url,
      ranAt: new Date().toISOString(),
      ready: [tls, token, discovery, privileges].every(ready),
      tls,
      token,
      discovery,
      privileges,
      suggestedProfile: {
        url: conn.url,
        ...(conn.tls ? { tls: conn.tls } : {}),
        ...(tokenId ? { tokenId } : {}),
        ...(found?.suggestion ?? emptySuggestion(conn)),
      },
    };
    log.info('connect doctor ran', {
      host: new URL(conn.url).host,
      tls: tls.status,
      token: token.status,
      discovery: discovery.status,
      privileges: privileges.status,
      ready: report.ready,
    });
    return report;
  } catch (e) {
    if (signal.aborted) throw stopped(options, runTimeoutMs);
    throw e;
  } finally {
    await client?.close();
  }
}

async function stepOutcome(
  name: DoctorStep,
  onProgress: DoctorProgressListener | undefined,
  run: () => Promise<DiscoveryOutcome>,
): Promise<DiscoveryOutcome> {
  let outcome: DiscoveryOutcome | undefined;
  await step(name, onProgress, async () => (outcome = await run()).section);
  return outcome!;
}

function emptyDiscovery(conn: ResolvedConnection): DoctorReport['discovery']['data'] {
  const range = conn.vmidRange ?? DEFAULT_VMID_RANGE;
  return {
    nodes: [],
    isoStorages: [],
    templates: [],
    bridges: [],
    vmidRange: { ...range, used: 0, free: range.max - range.min + 1, usedBy: [] },
    problems: [],
  };
}
