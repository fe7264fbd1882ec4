/**
 * The doctor's privilege step: `/access/permissions` on `/` and on the seed
 * storage, compared with the two roles of spec entry 14. Each missing
 * privilege is named with the commands that grant it.
 */
import { grantCommands, isApiError, operationsBlockedBy, type PveApi, roleCommand } from '../../core';
import type { PrivilegeCheck, PrivilegesSection } from '../../../shared/channels/doctor';
import { ROOT_ROLE, SEED_ROLE, type RequiredRole } from './roles';
import { blocked, errorText, passed } from './section';

async function checkPath(api: PveApi, path: string, role: RequiredRole, signal?: AbortSignal): Promise<PrivilegeCheck> {
  const answer = await api.permissions(path, { signal });
  const held = new Set(Object.keys(answer[path] ?? {}));
  return { path, role: role.role, required: [...role.privileges], missing: role.privileges.filter((p) => !held.has(p)) };
}

function describeMissing(check: PrivilegeCheck, role: RequiredRole): string {
  // Issue 16: which proxy actions the gap blocks (the root role's privileges reach /vms/<vmid> by inheritance).
  const blockedOps = check.path === '/' ? operationsBlockedBy(check.missing) : [];
  const blocks = blockedOps.length > 0 ? `; without them the token cannot ${blockedOps.join(', ')} a proxy` : '';
  return `on ${check.path} the token lacks ${check.missing.join(', ')} (role ${role.role}: ${role.why})${blocks}`;
}

export async function checkPrivileges(api: PveApi, tokenId: string, seedStorage: string, signal?: AbortSignal): Promise<PrivilegesSection> {
  const wanted: [string, RequiredRole][] = [
    ['/', ROOT_ROLE],
    [`/storage/${seedStorage}`, SEED_ROLE],
  ];
  let checks: PrivilegeCheck[];
  try {
    checks = await Promise.all(wanted.map(([path, role]) => checkPath(api, path, role, signal)));
  } catch (e) {
    signal?.throwIfAborted();
    return {
      ...blocked(
        'fail',
        `Could not read the token's permissions: ${isApiError(e) ? e.describe() : errorText(e)}.`,
        'Run the check again; if it keeps failing, check the node is reachable.',
      ),
      data: { checks: [], commands: [] },
    };
  }
  const lacking = wanted.map(([, role], i) => ({ role, check: checks[i]! })).filter(({ check }) => check.missing.length > 0);
  if (lacking.length === 0) {
    return {
      ...passed('ok', `The token holds every privilege of ${ROOT_ROLE.role} on / and of ${SEED_ROLE.role} on /storage/${seedStorage}.`),
      data: { checks, commands: [] },
    };
  }
  const commands = lacking.flatMap(({ role, check }) => [roleCommand(role), ...grantCommands(check.path, role, tokenId)]);
  return {
    ...blocked(
      'fail',
      `Missing privileges: ${lacking.map(({ role, check }) => describeMissing(check, role)).join('; ')}.`,
      `Run these as root on a node: ${commands.map((c) => `\`${c}\``).join(', then ')}. The -token lines give a token made with privilege separation (the user guide's way) its own grant; for one made with --privsep 0 they change nothing.`,
    ),
    data: { checks, commands },
  };
}
