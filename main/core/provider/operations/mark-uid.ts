/**
 * Issue 26: releasing a proxy for adoption by the Kubernetes operator, and
 * taking it back. The operator's create adopts a VM with its Proxy's name
 * whose mark's `uid` is its Proxy's UID or empty (spec entry 2, the
 * ownership check), so a release rewrites the mark's uid line empty, and an
 * undo writes the app's UID back while it is still empty. Every other byte of
 * the description stays (the managed and created-at lines, an admin's lines,
 * the notes). The identity is checked on a config read now (the name, the
 * mark, the uid the caller expects), and the write carries that read's
 * digest, so an edit made meanwhile is never overwritten (pve-common Tools.pm
 * assert_if_modified). Idempotent: a VM whose uid already is the one asked
 * for is left as it is (a resumed task finds its write done).
 *
 * Whether the operator has adopted a released VM cannot be read from its mark:
 * the operator's create writes no description (spec entry 10, step 6 sets
 * cores, memory, agent, tags, ide2), so the uid stays empty. What it does
 * leave is its seed: a stopped VM it adopts gets `<name>-seed.iso` uploaded
 * again (step 5). So a release answers the seed's listing (size and ctime,
 * pve-storage lists both for iso files), and an undo given that stamp refuses
 * when the seed is no longer the one released. A running VM is adopted
 * without any write (step 3: "Running, it returns its ID at once"), which no
 * listing can see; the undo's confirmation says so.
 */
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { notFound, ProviderError } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import { MARK_UID_KEY, parseMark } from '../rules/mark';
import { resolveVm } from '../cluster/resources';
import { writtenMarksOf } from '../cluster/written-marks';
import { ApiError } from '../../pve/errors';
import { goneError, readConfigOrGone } from '../cluster/vm-lookup';

export interface MarkUidChange {
  /** The uid the mark must carry now ('' for a released VM). */
  from: string;
  /** The uid to write ('' to release). */
  to: string;
  /** A release: the VM's seed (`<isoStorage>:iso/<name>-seed.iso` on ide2, listed on its node) must be there. */
  seedOn?: string;
  /** An undo: the seed as the release listed it; a seed written again since (the operator's adoption) refuses. */
  releasedSeed?: SeedStamp | undefined;
}

/** A seed volume as its storage lists it: another upload gives another ctime (and mostly another size). */
export interface SeedStamp {
  volid: string;
  size: number;
  ctime?: number | undefined;
}

export const MARK_UID_CODES = {
  changedMeanwhile: 'mark-changed-meanwhile',
  notOurs: 'mark-not-ours',
  noSeed: 'mark-no-seed',
  adopted: 'mark-adopted',
} as const;

/** The description with the first uid line's value replaced (the line the mark parser reads), or added after the managed line. */
export function withMarkUid(description: string, uid: string): string {
  const lines = description.split('\n');
  const at = lines.findIndex((l) => l.trim().startsWith(`${MARK_UID_KEY}=`));
  if (at >= 0) {
    const cr = lines[at]!.endsWith('\r') ? '\r' : '';
    lines[at] = `${MARK_UID_KEY}=${uid}${cr}`;
    return lines.join('\n');
  }
  const managed = lines.findIndex((l) => l.trim().startsWith('proxy-operator-managed='));
  lines.splice(managed + 1, 0, `${MARK_UID_KEY}=${uid}`);
  return lines.join('\n');
}

/** What the mark's uid was and is after the call: `written` false when it already was `to`. */
export interface MarkUidResult {
  node: string;
  vmid: number;
  written: boolean;
  /** A release: its seed as listed right before the write (or found, when the write was already done). */
  seed?: SeedStamp;
}

const seedVolid = (storage: string, name: string) => `${storage}:iso/${name}-seed.iso`;
const ide2Volid = (config: Record<string, unknown>) => String(config.ide2 ?? '').split(',')[0];

async function listedSeed(ctx: CoreContext, node: string, volid: string, signal: AbortSignal | undefined): Promise<SeedStamp | undefined> {
  const storage = volid.slice(0, volid.indexOf(':'));
  const v = (await ctx.api.storageContent(node, storage, 'iso', { signal })).find((x) => x.volid === volid);
  return v ? { volid, size: v.size ?? 0, ...(v.ctime !== undefined ? { ctime: v.ctime } : {}) } : undefined;
}

const sameSeed = (a: SeedStamp, b: SeedStamp) => a.volid === b.volid && a.size === b.size && a.ctime === b.ctime;
const when = (ctime: number | undefined) => (ctime === undefined ? '' : ` at ${new Date(ctime * 1000).toISOString().replace('.000Z', 'Z')}`);

export async function setMarkUid(ctx: CoreContext, id: string, change: MarkUidChange, options: CallOptions = {}): Promise<MarkUidResult> {
  try {
    const { vmid, name } = parseProviderId(id);
    const r = await resolveVm(ctx, vmid, options);
    if (!r?.node) throw goneError(vmid);
    const config = await readConfigOrGone(ctx, r.node, vmid, options.signal);
    if (config.name !== name) throw notFound(`VM ${vmid} is named ${config.name ?? '(nothing)'}, not ${name}: the proxy is gone`);
    const mark = parseMark(config.description);
    if (mark.managed && mark.uid === change.to) {
      // A resumed release still answers its seed, so an undo can tell the operator's upload from it.
      const seed = change.seedOn !== undefined && ide2Volid(config) === seedVolid(change.seedOn, name) ? await listedSeed(ctx, r.node, seedVolid(change.seedOn, name), options.signal) : undefined;
      return { node: r.node, vmid, written: false, ...(seed ? { seed } : {}) };
    }
    if (!mark.managed || mark.uid !== change.from) {
      const now = !mark.managed ? 'carries no mark' : `belongs to uid ${mark.uid === '' ? '(none)' : mark.uid}`;
      throw new ProviderError(
        'permanent',
        `VM ${vmid} named ${name} ${now}, not ${change.from === '' ? 'a released mark' : change.from}; its mark was not changed`,
        undefined,
        undefined,
        change.from === '' ? 'The operator has adopted it (its UID is in the mark): it is operator-made now.' : 'Refresh the inventory and look at the proxy again.',
        MARK_UID_CODES.notOurs,
      );
    }
    let seed: SeedStamp | undefined;
    if (change.seedOn !== undefined) {
      const volid = seedVolid(change.seedOn, name);
      const attached = ide2Volid(config) === volid;
      seed = attached ? await listedSeed(ctx, r.node, volid, options.signal) : undefined;
      if (!seed)
        throw new ProviderError(
          'permanent',
          `VM ${vmid} named ${name} has no seed ${volid} ${attached ? `listed on ${r.node}` : 'on ide2'}; its mark was not changed`,
          undefined,
          undefined,
          'Reconfigure the proxy with its user-data (which writes its seed again), then release it.',
          MARK_UID_CODES.noSeed,
        );
    }
    if (change.releasedSeed !== undefined) {
      const was = change.releasedSeed;
      const now = ide2Volid(config) === was.volid ? await listedSeed(ctx, r.node, was.volid, options.signal) : undefined;
      if (!now || !sameSeed(now, was))
        throw new ProviderError(
          'permanent',
          `${name} (VM ${vmid})'s seed ${now ? `was written again${when(now.ctime)}, after its release${when(was.ctime)}` : `${was.volid} is no longer on ide2 or listed`}: the Kubernetes operator has adopted it (its create uploads the seed again); its mark was not changed`,
          undefined,
          undefined,
          'It is the operator’s now: change or delete it through its Proxy in Kubernetes. Egress Desk treats it as operator-made.',
          MARK_UID_CODES.adopted,
        );
    }
    const description = withMarkUid(config.description ?? '', change.to);
    const params: Record<string, string> = { description };
    if (config.digest) params.digest = config.digest;
    try {
      await ctx.api.setVmConfig(r.node, vmid, params, { signal: options.signal });
    } catch (e) {
      if (e instanceof ApiError && /^detected modified configuration/.test(e.message))
        throw new ProviderError(
          'transient',
          `VM ${vmid}'s config changed while its mark was being rewritten; nothing was written`,
          undefined,
          undefined,
          'Retry: the mark is read again first.',
          MARK_UID_CODES.changedMeanwhile,
        );
      throw e;
    }
    writtenMarksOf(ctx.api).rewrite(vmid, name, description);
    ctx.log.info('mark uid rewritten', { vmid, node: r.node, released: change.to === '' });
    return { node: r.node, vmid, written: true, ...(seed ? { seed } : {}) };
  } catch (e) {
    throw toProviderError('mark', e, id);
  }
}
