/**
 * The Checker (spec entry 16): four probes per node, nodes checked
 * concurrently and reported in profile order, each with a reason an admin
 * can act on and the facts gathered so far.
 */
import { ApiError, TlsVerificationError, TokenFileError, TransportError, isNoSuchStorage } from '../../pve/errors';
import { readToken } from '../../pve/token';
import type { CallOptions, CoreContext } from '../calls/context';
import { isTemplate } from '../cluster/resources';

export type CheckReason =
  | 'Reachable'
  | 'Timeout'
  | 'Unreachable'
  | 'Unauthorized'
  | 'Forbidden'
  | 'APIError'
  | 'CertificateInvalid'
  | 'CredentialsUnavailable'
  | 'StorageNotFound'
  | 'TemplateNotFound';

export interface NodeCheck {
  node: string;
  address: string;
  ready: boolean;
  reason: CheckReason;
  message: string;
  latencyMs: number;
  /** pveVersion, kernel, isoStorage (always), isoStorageAvailGiB, templates (`<found>/<configured>`). */
  details: Record<string, string>;
}

/** A verdict the backend answered but the check refuses: the storage or a template is not usable. */
class CheckFailure extends Error {
  constructor(
    readonly reason: CheckReason,
    message: string,
  ) {
    super(message);
  }
}

export async function check(ctx: CoreContext, options: CallOptions = {}): Promise<NodeCheck[]> {
  return Promise.all(ctx.profile.nodes.map((node) => checkNode(ctx, node, options.signal)));
}

async function checkNode(ctx: CoreContext, node: string, signal?: AbortSignal): Promise<NodeCheck> {
  const started = Date.now();
  const details: Record<string, string> = { isoStorage: ctx.profile.isoStorage };
  let reason: CheckReason = 'Reachable';
  let message = '';
  try {
    details.tokenID = await tokenId(ctx);
    await probeNode(ctx, node, details, signal);
  } catch (e) {
    reason = signal?.aborted ? 'Timeout' : reasonOf(e);
    message = e instanceof ApiError ? e.describe() : e instanceof Error ? e.message : String(e);
  }
  const result = {
    node,
    address: ctx.profile.url,
    ready: reason === 'Reachable',
    reason,
    message,
    latencyMs: Date.now() - started,
    details,
  };
  ctx.log.info('proxmox node checked', { node, ready: result.ready, reason, latencyMs: result.latencyMs });
  return result;
}

/** Only the part before `=`: the secret is dropped at once. A missing or malformed file fails before any request. */
async function tokenId(ctx: CoreContext): Promise<string> {
  const token = ctx.profile.token;
  return token.kind === 'secret' ? token.tokenId : (await readToken(token)).tokenId;
}

/** Fills details as facts arrive, so a late failure still reports what came before. */
async function probeNode(ctx: CoreContext, node: string, details: Record<string, string>, signal?: AbortSignal): Promise<void> {
  details.pveVersion = (await ctx.api.version({ signal })).version;
  const kernel = (await ctx.api.nodeStatus(node, { signal })).kernel;
  if (kernel) details.kernel = kernel;
  await checkStorage(ctx, node, details, signal);
  await checkTemplates(ctx, details, signal);
}

async function checkStorage(ctx: CoreContext, node: string, details: Record<string, string>, signal?: AbortSignal): Promise<void> {
  const storage = ctx.profile.isoStorage;
  let status;
  try {
    status = await ctx.api.storageStatus(node, storage, { signal });
  } catch (e) {
    // A storage the cluster does not know is a 400 on `storage` (captured); a 500 means it is not usable on this node.
    if (isNoSuchStorage(e) || (e instanceof ApiError && e.status === 500)) {
      throw new CheckFailure('StorageNotFound', `storage ${storage} on node ${node}: ${(e as ApiError).describe()}`);
    }
    throw e;
  }
  if (status.avail !== undefined) details.isoStorageAvailGiB = (status.avail / 2 ** 30).toFixed(1);
  if (status.active === false) throw new CheckFailure('StorageNotFound', `storage ${storage} is not active on node ${node}`);
  if (!status.content.includes('iso')) {
    throw new CheckFailure(
      'StorageNotFound',
      `storage ${storage} on node ${node} does not hold iso content (content: ${status.content.join(',')})`,
    );
  }
}

/** A template may sit on any node, since a clone can target another. */
async function checkTemplates(ctx: CoreContext, details: Record<string, string>, signal?: AbortSignal): Promise<void> {
  const resources = await ctx.api.clusterResources('vm', { signal });
  const problems: string[] = [];
  const entries = Object.entries(ctx.profile.templates).sort(([a], [b]) => a.localeCompare(b));
  for (const [key, { vmid }] of entries) {
    const found = resources.find((r) => r.type === 'qemu' && r.vmid === vmid);
    if (!found) problems.push(`template "${key}": VM ${vmid} does not exist`);
    else if (!isTemplate(found)) problems.push(`template "${key}": VM ${vmid} is not a template`);
  }
  details.templates = `${entries.length - problems.length}/${entries.length}`;
  if (problems.length > 0) throw new CheckFailure('TemplateNotFound', problems.join('; '));
}

function reasonOf(e: unknown): CheckReason {
  if (e instanceof CheckFailure) return e.reason;
  if (e instanceof TokenFileError) return 'CredentialsUnavailable';
  if (e instanceof TlsVerificationError) return 'CertificateInvalid';
  if (e instanceof ApiError) {
    if (e.status === 401) return 'Unauthorized';
    if (e.status === 403) return 'Forbidden';
    if (e.status === 595 || e.status === 596) return 'Unreachable';
    return 'APIError';
  }
  if (e instanceof TransportError) return e.failure === 'timeout' || e.failure === 'aborted' ? 'Timeout' : 'Unreachable';
  return 'APIError';
}
