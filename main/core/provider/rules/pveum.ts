/**
 * The exact `pveum` commands that grant a missing role, as the operator's
 * guide documents them: the role is created or, when it exists, set to the
 * full list, then granted on its path to the token's user. Pure strings, so
 * both the connect doctor (services/doctor) and the template builder's
 * preflight (core/templates) print the same lines.
 */

/** What a command needs of a role: its name and its full privilege list. */
export interface PveumRole {
  role: string;
  privileges: readonly string[];
}

/** `user@realm` of a token id `user@realm!name`. */
export function userOfToken(tokenId: string): string {
  return tokenId.split('!')[0] ?? tokenId;
}

/** One line that creates the role, or replaces the privileges of an existing one with the full list. */
export function roleCommand(role: PveumRole): string {
  const privs = `-privs "${role.privileges.join(' ')}"`;
  return `pveum role add ${role.role} ${privs} || pveum role modify ${role.role} ${privs}`;
}

export function grantCommand(path: string, role: PveumRole, tokenId: string): string {
  return `pveum aclmod ${path} -user ${userOfToken(tokenId)} -role ${role.role}`;
}

/** For a token made with privilege separation: its own ACL must carry the role too. */
export function tokenGrantCommand(path: string, role: PveumRole, tokenId: string): string {
  return `pveum aclmod ${path} -token '${tokenId}' -role ${role.role}`;
}

/**
 * The grants of one role on one path: to the token's user and to the token itself. A token made with privilege
 * separation (the user guide's way) holds only what both grant (pveum.adoc, API Tokens); for one made with
 * --privsep 0 its own line changes nothing.
 */
export function grantCommands(path: string, role: PveumRole, tokenId: string): string[] {
  return [grantCommand(path, role, tokenId), tokenGrantCommand(path, role, tokenId)];
}
