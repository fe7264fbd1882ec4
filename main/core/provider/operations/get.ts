/**
 * Get (spec entries 7 to 9): the VMID's resource entry, its config for the
 * name and the mark, then status/current and, for a running VM, the guest
 * agent. The first matching check decides. Takes no lock.
 */
import { AgentRefusedError, isAgentNotConfigured, isAgentNotRunning } from '../../pve/errors';
import type { CallOptions, CoreContext } from '../calls/context';
import { toProviderError } from '../rules/classify';
import { notFound, permanent, transient } from '../rules/errors';
import { formatProviderId, parseProviderId } from '../rules/ids';
import { parseMark } from '../rules/mark';
import { resolveVm } from '../cluster/resources';
import { LOCK_SUSPENDED } from '../calls/tasks';
import { guestAddress, net0Mac } from '../rules/guest-address';
import { guestRunning, mapState, type VmState } from '../rules/vm-state';

export interface Instance {
  id: string;
  state: VmState;
  /** Empty unless running. */
  ip: string;
  uid: string;
  createdAt: Date | undefined;
  node: string;
  vmid: number;
}

const isTaskLock = (lock: string | undefined): lock is string => !!lock && lock !== LOCK_SUSPENDED;

export async function get(ctx: CoreContext, id: string, options: CallOptions = {}): Promise<Instance> {
  try {
    const { vmid, name } = parseProviderId(id);
    return await getParsed(ctx, vmid, name, options.signal);
  } catch (e) {
    const err = toProviderError('get', e, id);
    if (err.kind === 'not-found') ctx.log.info('proxmox vm not found', { id, reason: err.message });
    throw err;
  }
}

async function getParsed(ctx: CoreContext, vmid: number, name: string, signal?: AbortSignal): Promise<Instance> {
  const r = await resolveVm(ctx, vmid, { signal });
  if (!r) throw notFound(`VM ${vmid} is not in the cluster's resources`);
  // A mid-clone entry is nameless with status unknown: the lock is checked before anything reads it as absent.
  if (isTaskLock(r.lock)) throw transient(`VM ${vmid} is locked (${r.lock})`);
  if (r.status === 'unknown' || !r.node) {
    throw transient(`VM ${vmid} has status unknown: its node ${r.node ?? '?'} is not answering, or the VM is too new to be reported yet`);
  }
  const node = r.node;
  const config = await ctx.api.vmConfig(node, vmid, { signal });
  if (isTaskLock(config.lock)) throw transient(`VM ${vmid} is locked (${config.lock})`);
  if (config.name !== name) throw notFound(`VM ${vmid} is now named "${config.name ?? ''}": the VMID was reused`);
  const mark = parseMark(config.description);
  if (!mark.managed) throw notFound(`VM ${vmid} carries no Egress Desk mark`);
  const base = { id: formatProviderId(vmid, name), uid: mark.uid, createdAt: mark.createdAt, node, vmid, ip: '' };

  // Hibernated decides the state, not ownership (checked above); no further call.
  if (r.lock === LOCK_SUSPENDED || config.lock === LOCK_SUSPENDED) return { ...base, state: 'stopped' };
  const status = await ctx.api.vmStatus(node, vmid, { signal });
  if (!guestRunning(status.status, status.qmpstatus)) return { ...base, state: mapState(status.status, status.qmpstatus, '') };
  return { ...base, ...(await agentAddress(ctx, node, vmid, net0Mac(config.net0), signal)) };
}

/** The agent's answers (spec entry 7); anything it cannot place is transient, so an address read never loses a VM. */
async function agentAddress(
  ctx: CoreContext,
  node: string,
  vmid: number,
  mac: string | undefined,
  signal?: AbortSignal,
): Promise<{ state: VmState; ip: string }> {
  try {
    // The address on net0's NIC (rules/guest-address.ts), not whichever NIC the agent lists first.
    const ip = guestAddress(await ctx.api.agentNetworkInterfaces(node, vmid, { signal }), mac);
    return { state: mapState('running', 'running', ip), ip };
  } catch (e) {
    if (isAgentNotRunning(e)) return { state: 'provisioning', ip: '' };
    // agent=1 was removed: this VM can never report an address, so it is replaced.
    if (isAgentNotConfigured(e)) return { state: 'stopped', ip: '' };
    // The agent answered with its own refusal: its class decides (a disabled command needs the guest's agent config changed).
    if (e instanceof AgentRefusedError) {
      const why = `the guest agent of VM ${vmid} refused network-get-interfaces: ${e.message}`;
      throw e.failureClass === 'permanent' ? permanent(why, e.hint) : transient(why, e.hint);
    }
    throw transient(`reading the guest agent of VM ${vmid}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
