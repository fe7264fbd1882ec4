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
}

export const MARK_UID_CODES = { changedMeanwhile: 'mark-changed-meanwhile', notOurs: 'mark-not-ours', noSeed: 'mark-no-seed' } as const;

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
}

export async function setMarkUid(ctx: CoreContext, id: string, change: MarkUidChange, options: CallOptions = {}): Promise<MarkUidResult> {
  try {
    const { vmid, name } = parseProviderId(id);
    const r = await resolveVm(ctx, vmid, options);
    if (!r?.node) throw goneError(vmid);
    const config = await readConfigOrGone(ctx, r.node, vmid, options.signal);
    if (config.name !== name) throw notFound(`VM ${vmid} is named ${config.name ?? '(nothing)'}, not ${name}: the proxy is gone`);
    const mark = parseMark(config.description);
    if (mark.managed && mark.uid === change.to) return { node: r.node, vmid, written: false };
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
    if (change.seedOn !== undefined) {
      const volid = `${change.seedOn}:iso/${name}-seed.iso`;
      const attached = String(config.ide2 ?? '').split(',')[0] === volid;
      const listed = attached && (await ctx.api.storageContent(r.node, change.seedOn, 'iso', { signal: options.signal })).some((v) => v.volid === volid);
      if (!listed)
        throw new ProviderError(
          'permanent',
          `VM ${vmid} named ${name} has no seed ${volid} ${attached ? `listed on ${r.node}` : 'on ide2'}; its mark was not changed`,
          undefined,
          undefined,
          'Reconfigure the proxy with its user-data (which writes its seed again), then release it.',
          MARK_UID_CODES.noSeed,
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
    return { node: r.node, vmid, written: true };
  } catch (e) {
    throw toProviderError('mark', e, id);
  }
}
