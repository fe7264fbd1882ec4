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

// The roles its default tokens hold are the spec's own (one list, shared with the connect doctor).
export { OPERATOR_ROOT_PRIVILEGES, SEED_STORAGE_PRIVILEGES } from '../core/provider/privileges';
import { OPERATOR_ROOT_PRIVILEGES, SEED_STORAGE_PRIVILEGES } from '../core/provider/privileges';

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
