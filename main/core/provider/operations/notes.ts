/**
 * A proxy's Notes and tags (issue 23): read from its config now, and written
 * with one synchronous config PUT (qemu-server API2/Qemu.pm update_vm: `tags`
 * and `description` take effect at once, running or not). Only what changed is
 * sent; the marks stay byte for byte (rules/notes.ts); the write carries the
 * `digest` of the config the user saw, so an edit made meanwhile in the Proxmox
 * UI is never overwritten (pve-common Tools.pm assert_if_modified).
 */
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { notFound, ProviderError } from '../rules/errors';
import { parseProviderId } from '../rules/ids';
import { parseMark } from '../rules/mark';
import { joinNotes, notesProblem, splitNotes, tagProblem, tagsValue, userTags } from '../rules/notes';
import { hasTag, PROXY_TAG } from '../rules/tags';
import { notTheOne } from '../cluster/ownership';
import { resolveVm } from '../cluster/resources';
import { ApiError } from '../../pve/errors';
import { goneError, readConfigOrGone } from '../cluster/vm-lookup';

export interface VmNotes {
  node: string;
  vmid: number;
  /** The description below the marks. */
  notes: string;
  /** The tags but the operator's. */
  tags: string[];
  /** Whether the VM carries `proxy_operator` (kept on every write). */
  proxyTag: boolean;
  /** The VM carries the mark: its notes and tags may be written. */
  marked: boolean;
  /** The config's digest when read: the write sends it back. */
  digest: string;
}

export interface NotesChange {
  notes?: string;
  tags?: string[];
  /** The digest of the read the change was made on. */
  digest: string;
}

export const NOTES_CODES = { changedMeanwhile: 'notes-changed-meanwhile', notMarked: 'notes-not-marked' } as const;

async function readNow(ctx: CoreContext, id: string, options: CallOptions) {
  const { vmid, name } = parseProviderId(id);
  const r = await resolveVm(ctx, vmid, options);
  if (!r?.node) throw goneError(vmid);
  const config = await readConfigOrGone(ctx, r.node, vmid, options.signal);
  if (config.name !== name) throw notFound(notTheOne(vmid, config, { name }) ?? `VM ${vmid} is not ${name}`);
  return { node: r.node, vmid, name, config };
}

/** The notes and tags of a VM, read now (one listing lookup, one config read). Any VM with the name may be read. */
export async function notesOf(ctx: CoreContext, id: string, options: CallOptions = {}): Promise<VmNotes> {
  try {
    const { node, vmid, config } = await readNow(ctx, id, options);
    return {
      node,
      vmid,
      notes: splitNotes(config.description).notes,
      tags: userTags(config.tags),
      proxyTag: hasTag(config.tags, PROXY_TAG),
      marked: parseMark(config.description).managed,
      digest: config.digest ?? '',
    };
  } catch (e) {
    throw toProviderError('notes', e, id);
  }
}

/** Writes the notes and tags of a marked VM; refuses before sending anything when they cannot be written. */
export async function setNotes(ctx: CoreContext, id: string, change: NotesChange, options: CallOptions = {}): Promise<VmNotes> {
  try {
    const { node, vmid, name, config } = await readNow(ctx, id, options);
    const why = notTheOne(vmid, config, { name });
    if (why)
      throw new ProviderError(
        'permanent',
        `${why}; its notes and tags are edited in the Proxmox UI, not here`,
        undefined,
        undefined,
        'Egress Desk writes notes and tags only on proxies that carry its mark.',
        NOTES_CODES.notMarked,
      );
    if (config.digest && change.digest && config.digest !== change.digest) throw changedMeanwhile(vmid);
    const { marks, notes } = splitNotes(config.description);
    const params: Record<string, string> = {};
    const toDelete: string[] = [];
    if (change.notes !== undefined && change.notes.replace(/\s+$/, '') !== notes.replace(/\s+$/, '')) {
      const problem = notesProblem(marks, change.notes);
      if (problem) throw invalid(problem, 'Change the notes, then save again.');
      const description = joinNotes(marks, change.notes);
      if (description) params.description = description;
      else toDelete.push('description');
    }
    if (change.tags !== undefined) {
      const bad = change.tags.map(tagProblem).find((p) => p !== undefined);
      if (bad) throw invalid(bad, 'Change the tag, then save again.');
      const value = tagsValue(config.tags, change.tags);
      if (value !== (config.tags ?? '')) {
        if (value) params.tags = value;
        else toDelete.push('tags');
      }
    }
    if (toDelete.length > 0) params.delete = toDelete.join(',');
    if (Object.keys(params).length > 0) {
      if (config.digest) params.digest = config.digest;
      try {
        await ctx.api.setVmConfig(node, vmid, params, { signal: options.signal });
      } catch (e) {
        if (e instanceof ApiError && /^detected modified configuration/.test(e.message)) throw changedMeanwhile(vmid);
        throw e;
      }
      ctx.log.info('notes and tags written', { vmid, node, keys: Object.keys(params).filter((k) => k !== 'digest') });
    }
    return await notesOf(ctx, id, options);
  } catch (e) {
    throw toProviderError('notes', e, id);
  }
}

function invalid(message: string, hint: string): ProviderError {
  return new ProviderError('permanent', message, undefined, undefined, hint, 'notes-invalid');
}

function changedMeanwhile(vmid: number): ProviderError {
  return new ProviderError(
    'transient',
    `VM ${vmid}'s config changed since its notes were read (an edit in the Proxmox UI, or another task); nothing was written`,
    undefined,
    undefined,
    'Your text is still in the editor: copy it, reopen the notes to see the new version, and save again.',
    NOTES_CODES.changedMeanwhile,
  );
}
