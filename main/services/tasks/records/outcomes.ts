/** The words and states a task ends with: a bulk request's overall state, what a delete or a Clean up did. */
import type { DeleteReport } from '../../../core';
import { finishedStates, type TaskRecord } from './task-record';

/** A bulk request's state, progress and summary in words (counts, then why the failed ones failed), from its children. */
export function parentOutcome(children: TaskRecord[]): Pick<TaskRecord, 'state' | 'progress' | 'message'> {
  const progress = children.reduce((n, c) => n + (c.state === 'succeeded' ? 1 : c.progress), 0) / Math.max(1, children.length);
  const count = (s: TaskRecord['state']) => children.filter((c) => c.state === s).length;
  if (children.some((c) => !finishedStates.has(c.state))) {
    return { state: count('running') > 0 ? 'running' : 'queued', progress, message: `${count('succeeded')} of ${children.length} done` };
  }
  const parts = (['succeeded', 'failed', 'cancelled', 'interrupted'] as const).filter((s) => count(s) > 0).map((s) => `${count(s)} ${s}`);
  const why = failuresGrouped(children);
  const state =
    count('succeeded') === children.length
      ? 'succeeded'
      : count('interrupted') > 0
        ? 'interrupted'
        : count('failed') > 0
          ? 'failed'
          : 'cancelled';
  return { state, progress, message: `${parts.join(', ')}${why ? `: ${why}` : ''}` };
}

/**
 * Why a bulk request's children failed, one group per reason: "proxy-a, proxy-b: <the first one's message>". Messages
 * that differ only by the VM's name or VMID are one reason.
 */
function failuresGrouped(children: TaskRecord[]): string {
  const groups = new Map<string, { names: string[]; message: string }>();
  for (const c of children) {
    if (c.state !== 'failed' || !c.error) continue;
    let key = c.error.message.split(c.target).join('\u0000');
    if (c.vmid !== undefined) key = key.split(String(c.vmid)).join('\u0001');
    const group = groups.get(key) ?? { names: [], message: c.error.message };
    group.names.push(c.target);
    groups.set(key, group);
  }
  if (groups.size === 0) return '';
  return `${[...groups.values()].map((g) => `${g.names.join(', ')}: ${g.message.replace(/\.$/, '')}`).join('; ')}.`;
}

/** What a delete did, in plain words: the VM, then where its seed went or stayed and why. */
export function describeDelete(name: string, r: DeleteReport): string {
  const seedGone = r.seedKept.length === 0 && r.seedDeletedOn.length > 0;
  const parts: string[] = [];
  if (r.destroyed) {
    const vm = `${name} (VM ${r.destroyed.vmid} on ${r.destroyed.node})`;
    parts.push(seedGone ? `${vm} and its seed are deleted.` : `${vm} is deleted.`);
  } else {
    parts.push(`${r.leftAlone ?? `No VM of ${name} was there`}.`);
    if (r.seedDeletedOn.length > 0) parts.push(`Its seed ${r.seed}, if one was left, is deleted on ${r.seedDeletedOn.join(', ')}.`);
  }
  for (const k of r.seedKept) parts.push(`Its seed ${r.seed} on ${k.node} is kept: ${k.reason}`);
  return parts.join(' ');
}

/** What a Clean up did: each delete it ran, the VMs it left alone, or that the create left nothing behind. */
export function describeCleanUp(o: { name: string; vmid?: number; reports: DeleteReport[]; leftAlone: string[] }): string {
  const alone = o.leftAlone.map((why) => `${why}: left alone, with its seed.`);
  const did = o.reports.some((r) => r.destroyed || r.seedDeletedOn.length > 0);
  if (!did) {
    const why =
      o.vmid === undefined
        ? `the create of ${o.name} stopped before it made a VM (it never had a VMID), and no VM carries its UID`
        : `no VM carries the UID of the create of ${o.name}, and its seed is in use or could not be deleted`;
    const found = o.reports.flatMap((r) => [
      ...(r.leftAlone ? [`${r.leftAlone}.`] : []),
      ...r.seedKept.map((k) => `Its seed ${r.seed} on ${k.node} is kept: ${k.reason}`),
    ]);
    return [`Nothing was left behind to clean up: ${why}, so nothing was deleted.`, ...alone, ...found].join(' ');
  }
  return [...o.reports.map((r) => describeDelete(o.name, r)), ...alone].join(' ');
}
