/**
 * Issue 24: "Rotate credentials", new credentials applied without recreating
 * the VM: a new seed (the user-data the app kept for the proxy, its
 * placeholders filled with the new credentials, a new instance-id so
 * cloud-init runs its modules again) swapped in as a reconfigure swaps one
 * (core/provider/operations/reconfigure.ts: stage-seed, replace-seed, then
 * Proxmox's reboot), then the proxy's address, then the app's own check with
 * the new credentials; only when it passes are they made current and the old
 * ones forgotten (the credential store's rotateCommit).
 *
 * Why a seed and a reboot, not the guest agent's file-write and exec: the
 * agent's calls need privileges the app does not ask for otherwise (the
 * official API schema, pve-docs 9.1.3 apidata.js: `agent/file-write` wants
 * `VM.GuestAgent.FileWrite` or `VM.GuestAgent.Unrestricted`, `agent/exec`
 * `VM.GuestAgent.Unrestricted`; before 9 both want `VM.Monitor`, which also
 * opens the QEMU monitor), an agent that answers, and a command per daemon to
 * rewrite its file and reload it. The seed swap needs only what a
 * reconfigure already needs (`Datastore.AllocateTemplate`, `VM.Config.CDROM`,
 * `VM.PowerMgmt`), works on every version, is journalled and resumable, and
 * writes the credentials the way a create does: the daemon reads them from
 * the same cloud-init modules. Its cost is a reboot (docs/security.md).
 *
 * Resumable at every step: the instance-id is journalled and the new
 * credentials are the store's pending set (sealed there, never in the
 * journal), so a rerun builds the same seed bytes; a seed the record says is
 * already written with this instance-id (the reboot ended) is not swapped
 * again, the run goes on to the address and the check; a rerun after the
 * commit finds no pending set and that seed, and ends.
 *
 * A check that does not pass within its bound fails the task in words: the
 * guest's seed carries the NEW credentials, the app keeps both sets, the
 * checks and Test keep sending the current (old) ones until a retry's check
 * with the new ones passes.
 */
import { ADDRESS_STEP } from '../../../../shared/channels/tasks';
import type { ProxyCheckResult, ProxyTestInput } from '../../../../shared/channels/proxy-check';
import { formatProviderId, reconfigureSteps, type ProgressEvent } from '../../../core';
import { AppError } from '../../../errors/app-error';
import type { ProxyCredentials } from '../../../ports/proxy-credentials';
import type { ProxyRecords } from '../records/proxy-records';
import type { AddressFeed } from '../address-watch';
import { withName, type RunContext, type Runner } from './run-context';

export const VERIFY_STEP = 'check with the new credentials';
/** The core's steps a rotate runs (no configure, no resize), then the address and the check. */
export const rotateSteps: readonly string[] = [
  ...reconfigureSteps.filter((s) => s !== 'configure' && s !== 'resize'),
  ADDRESS_STEP,
  VERIFY_STEP,
];

/** What a rotate needs besides the run's context; the task manager builds it (task-manager.ts). */
export interface RotateDeps {
  records: ProxyRecords;
  /** The sealed user-data opened (the task sealer). */
  open(sealed: string): Promise<string>;
  credentials: {
    fillPending(clusterId: string, uid: string, name: string, userData: string): Promise<string>;
    pendingOf(clusterId: string, uid: string): Promise<ProxyCredentials | undefined>;
    rotateCommit(clusterId: string, uid: string): Promise<void>;
  };
  /** Resolves when the inventory lists the VM running with an address (its guest agent's); undefined: no inventory. */
  address?(clusterId: string, vmid: number, signal: AbortSignal): Promise<string>;
  /** The app's own proxy check with these credentials (Test's; throws its AppError for a VM down or without address). */
  check(input: ProxyTestInput, credentials: ProxyCredentials, signal: AbortSignal): Promise<ProxyCheckResult>;
  /** How long the check may keep failing after the reboot (the daemon starting, cloud-init rewriting its file). */
  verifyWithinMs: number;
  /** Between two checks. */
  pause(ms: number, signal: AbortSignal): Promise<void>;
  retryMs: number;
}

const progress = (step: string, phase: ProgressEvent['phase'], vmid: number): ProgressEvent => ({
  op: 'reconfigure',
  step,
  phase,
  index: 0,
  total: 0,
  vmid,
});

export const rotateCredentials =
  (deps: RotateDeps): Runner =>
  async (ctx) => {
    const input = ctx.current().input;
    if (input.kind !== 'rotate-credentials') throw new Error('rotate runner given another kind');
    const { records, credentials } = deps;
    const clusterId = ctx.cluster.id;
    const { uid, name, vmid, instanceId } = input;
    const seed = records.seed(clusterId, uid);
    const written = seed.state === 'known' && seed.instanceId === instanceId;
    const pending = await credentials.pendingOf(clusterId, uid);
    if (!pending && written) return `${name} (VM ${vmid}) uses its new credentials already: an earlier run checked and kept them.`;

    if (!written) {
      const kept = input.sealedCloudInit;
      const text = await credentials.fillPending(clusterId, uid, name, await deps.open(kept));
      const r = await withName(ctx, name, () =>
        ctx.cluster.provider.reconfigure(
          formatProviderId(vmid, name),
          { userData: { text, instanceId, network: records.network(clusterId, uid) } },
          {
            signal: ctx.signal,
            expect: { uid },
            onProgress: (e) => {
              // Before the first seed upload goes out: from here the seed on Proxmox may carry either instance-id.
              if (e.phase === 'started' && (e.step === 'stage-seed' || e.step === 'replace-seed'))
                records.seedSwapBegins(clusterId, uid, instanceId);
              ctx.onProgress(e);
            },
          },
        ),
      );
      // The record's user-data is unchanged (placeholders only); the seed's instance-id is the new one.
      records.seedWritten(clusterId, uid, instanceId, { sealedUserData: kept, endpoint: records.endpoint(clusterId, uid) });
      if (!r.rebooted)
        throw new AppError(
          'transient',
          `${name} (VM ${vmid}) is not running, so it has not booted its new seed yet: the seed carries the new credentials, and the app keeps both sets (checks and Test still send the current ones).`,
          'Start the VM, then Retry this task: it checks the proxy with the new credentials and, when they pass, makes them current.',
        );
    }
    return verify(ctx, deps, input, pending);
  };

async function verify(
  ctx: RunContext,
  deps: RotateDeps,
  input: { uid: string; name: string; vmid: number },
  pending: ProxyCredentials | undefined,
): Promise<string> {
  const clusterId = ctx.cluster.id;
  const { uid, name, vmid } = input;
  const endpoint = deps.records.endpoint(clusterId, uid);
  const creds = pending ?? (await deps.credentials.pendingOf(clusterId, uid));
  if (!creds || !endpoint)
    throw new AppError(
      'permanent',
      `The new credentials of ${name} (VM ${vmid}) cannot be checked: ${!creds ? 'they were kept for a session only, which has ended' : 'the app does not know which port its proxy listens on'}. The guest's seed carries them.`,
      'Rotate the credentials again: the app makes a new set and writes it into a new seed.',
    );
  if (deps.address) {
    ctx.onProgress(progress(ADDRESS_STEP, 'started', vmid));
    await deps.address(clusterId, vmid, ctx.signal);
    ctx.onProgress(progress(ADDRESS_STEP, 'done', vmid));
  } else ctx.onProgress(progress(ADDRESS_STEP, 'skipped', vmid));

  ctx.onProgress(progress(VERIFY_STEP, 'started', vmid));
  const until = Date.now() + deps.verifyWithinMs;
  let last = '';
  for (;;) {
    try {
      const result = await deps.check({ clusterId, vmid, protocol: endpoint.protocol, port: endpoint.port }, creds, ctx.signal);
      if (result.reachable) {
        await deps.credentials.rotateCommit(clusterId, uid);
        ctx.onProgress(progress(VERIFY_STEP, 'done', vmid));
        const exit = result.egressAddress ? `, exit ${result.egressAddress}` : '';
        return `${name} (VM ${vmid}): new credentials in use, checked through the proxy at ${result.address}:${result.port}${exit}; the old ones are forgotten.`;
      }
      // The problem's own words only: its hint speaks of the kept credentials, which this check did not send.
      last = result.problem ? result.problem.message : 'the check did not pass.';
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      last = e instanceof Error ? e.message : String(e);
    }
    if (Date.now() >= until) break;
    await deps.pause(deps.retryMs, ctx.signal);
  }
  // Transient: Retry is the way on (the seed is written; a retry checks again and commits).
  throw new AppError(
    'transient',
    `The check of ${name} (VM ${vmid}) with its new credentials did not pass: ${last} The VM's seed now carries the NEW credentials; the app keeps both sets, and checks and Test still send the current (old) ones.`,
    "Retry this task when the proxy is up: it checks again with the new credentials and, when they pass, makes them current. If it keeps failing, open the VM's console (cloud-init status), or rotate again.",
  );
}

/** The rotate's address step over the inventory's feed (address-watch.ts): resolves when the VM runs with an address. */
export function addressFromFeed(feed: AddressFeed, waitMs: number): NonNullable<RotateDeps['address']> {
  return (clusterId, vmid, signal) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        done();
        reject(
          new AppError(
            'transient',
            `VM ${vmid} has reported no address for ${Math.round(waitMs / 60_000)} minutes since its reboot. Its seed carries the new credentials; the app keeps both sets.`,
            "Check that the VM booted (its console) and that its guest agent runs, then Retry this task.",
          ),
        );
      }, waitMs);
      const off = feed.subscribe((d) => {
        if (d.clusterId === clusterId) look();
      });
      const abort = () => {
        done();
        reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
      };
      signal.addEventListener('abort', abort, { once: true });
      function done() {
        clearTimeout(timer);
        off();
        signal.removeEventListener('abort', abort);
      }
      function look() {
        const row = feed.row(clusterId, vmid);
        if (row?.status !== 'running' || !row.address) return;
        done();
        resolve(row.address);
      }
      look();
    });
}

/** A pause that ends early, rejecting, when the task is cancelled. */
export function abortablePause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}
