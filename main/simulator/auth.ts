/**
 * API tokens and Proxmox's ACL semantics. Privileges propagate down the
 * path tree, and a grant on a more specific path replaces the inherited one
 * for that token (the Phase 0 seed-storage finding), so the effective set at
 * a path is the grant of its longest granted ancestor.
 */
import { randomUUID } from 'node:crypto';
import { registerSecret } from '../log/secrets';
import { bareError, forbidden } from './errors';
import type { AclGrants, TokenCredentials, TokenDefinition } from './types';

/**
 * The roles the default operator token holds, as the spec's entry 14 writes them down (../shared, "Minimum
 * privileges, as verified on 9.2.20"), plus VM.Migrate, which qemu-server's migrate_vm checks on /vms/{vmid}
 * (issue 11: a create that clones on the template's node, then migrates). Stated here, not taken from the core:
 * the doctor's test compares the core's roles with these, so a wrong core table fails.
 */
export const OPERATOR_ROOT_PRIVILEGES = [
  'VM.Allocate',
  'VM.Clone',
  'VM.Audit',
  'VM.Config.CDROM',
  'VM.Config.CPU',
  'VM.Config.Memory',
  'VM.Config.Disk',
  'VM.Config.Network',
  'VM.Config.Options',
  'VM.PowerMgmt',
  'VM.Migrate',
  'VM.GuestAgent.Audit',
  'Datastore.Audit',
  'Datastore.AllocateSpace',
  'Datastore.AllocateTemplate',
  'Sys.Audit',
  'SDN.Use',
] as const;

/** The role on the seed storage: a grant on a more specific path replaces the inherited one, so it repeats the uploads'. */
export const SEED_STORAGE_PRIVILEGES = [
  'Datastore.Allocate',
  'Datastore.AllocateTemplate',
  'Datastore.AllocateSpace',
  'Datastore.Audit',
] as const;

const ALL_PRIVILEGES = [
  ...OPERATOR_ROOT_PRIVILEGES,
  'Datastore.Allocate',
  'VM.Config.HWType',
  'VM.Config.Cloudinit',
  'VM.GuestAgent.Unrestricted',
  'VM.Console',
  'VM.Backup',
  'VM.Snapshot',
  'VM.Migrate',
  'Sys.Modify',
  'Sys.PowerMgmt',
  'Sys.Syslog',
  'Sys.Console',
] as const;

export function defaultTokens(seedStorage: string): Record<string, TokenDefinition> {
  return {
    admin: { tokenId: 'root@pam!egress-desk', acl: { '/': ALL_PRIVILEGES } },
    operator: {
      tokenId: 'proxy-operator@pve!operator',
      acl: { '/': OPERATOR_ROOT_PRIVILEGES, [`/storage/${seedStorage}`]: SEED_STORAGE_PRIVILEGES },
    },
    noSeedAllocate: { tokenId: 'proxy-operator@pve!no-seed-role', acl: { '/': OPERATOR_ROOT_PRIVILEGES } },
    auditor: { tokenId: 'auditor@pve!readonly', acl: { '/': ['VM.Audit', 'Datastore.Audit', 'Sys.Audit'] } },
  };
}

interface TokenEntry {
  secret: string;
  acl: AclGrants;
}

export class TokenStore {
  private readonly byId = new Map<string, TokenEntry>();
  readonly credentials: Record<string, TokenCredentials> = {};

  constructor(tokens: Record<string, TokenDefinition>) {
    for (const [name, def] of Object.entries(tokens)) {
      const secret = def.secret ?? randomUUID();
      registerSecret(secret);
      this.byId.set(def.tokenId, { secret, acl: def.acl });
      this.credentials[name] = { tokenId: def.tokenId, secret };
    }
  }

  /** The token id a request authenticates as; throws the 401s of F22. */
  authenticate(header: string | undefined): string {
    if (!header) throw bareError('noTicket');
    const m = /^PVEAPIToken[= ]([^=\s]+)=(\S+)$/.exec(header.trim());
    const entry = m ? this.byId.get(m[1]!) : undefined;
    if (!m || !entry || entry.secret !== m[2]) throw bareError('authFailed');
    return m[1]!;
  }

  /** Effective privileges at `path`: the grant on the longest granted ancestor (or the path itself). */
  privileges(tokenId: string, path: string): Set<string> {
    const acl = this.byId.get(tokenId)?.acl ?? {};
    let best: string | undefined;
    for (const granted of Object.keys(acl)) if (isAncestor(granted, path) && (!best || granted.length > best.length)) best = granted;
    return new Set(best ? acl[best] : []);
  }

  /** Every granted path with its privileges, as /access/permissions answers without `path`. */
  grants(tokenId: string): AclGrants {
    return this.byId.get(tokenId)?.acl ?? {};
  }

  /** Proxmox's `check`: every privilege needed; the first missing one is named. */
  requireAll(tokenId: string, path: string, privileges: readonly string[]): void {
    const held = this.privileges(tokenId, path);
    const missing = privileges.find((p) => !held.has(p));
    if (missing) throw forbidden(path, missing);
  }

  /** Proxmox's `check_any`: one suffices; the error lists them joined with `|`. */
  requireAny(tokenId: string, path: string, privileges: readonly string[]): void {
    const held = this.privileges(tokenId, path);
    if (!privileges.some((p) => held.has(p))) throw forbidden(path, privileges.join('|'));
  }

  holds(tokenId: string, path: string, privilege: string): boolean {
    return this.privileges(tokenId, path).has(privilege);
  }
}

function isAncestor(granted: string, path: string): boolean {
  if (granted === '/') return true;
  return path === granted || path.startsWith(`${granted}/`);
}
