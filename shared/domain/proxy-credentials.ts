/**
 * Issue 24: the placeholders a proxy's user-data carries where its username
 * and password go. The renderer's presets (and a custom user-data) write
 * these names; main substitutes them when it builds the seed, from the
 * credentials it generated and keeps for that proxy
 * (main/services/proxy-credentials/), so the password never reaches the
 * renderer unasked. A user-data with none of them makes a proxy without
 * credentials, as before.
 */

export const CREDENTIAL_PLACEHOLDERS = {
  /** The username (letters, digits, `-`). */
  user: '${EGRESS_DESK_PROXY_USER}',
  /** The password in clear text (URL-safe base64, 192 bits): for daemons that take no hash (tinyproxy, microsocks). */
  password: '${EGRESS_DESK_PROXY_PASSWORD}',
  /** Apache's MD5 hash (`$apr1$…`), as an htpasswd line's second field (Squid's basic_ncsa_auth). */
  apr1: '${EGRESS_DESK_PROXY_PASSWORD_APR1}',
  /** The MD5-crypt hash (`$1$…`), for /etc/shadow through `chpasswd -e` (Dante's `username` method over PAM/shadow). */
  crypt: '${EGRESS_DESK_PROXY_PASSWORD_CRYPT}',
} as const;

export type CredentialPlaceholder = keyof typeof CREDENTIAL_PLACEHOLDERS;

/** Whether the user-data asks for credentials (names any of the placeholders). */
export function wantsCredentials(userData: string): boolean {
  return Object.values(CREDENTIAL_PLACEHOLDERS).some((p) => userData.includes(p));
}

/** The user-data with each placeholder replaced by its value. */
export function fillCredentials(userData: string, values: Record<CredentialPlaceholder, string>): string {
  let out = userData;
  for (const key of Object.keys(CREDENTIAL_PLACEHOLDERS) as CredentialPlaceholder[]) out = out.split(CREDENTIAL_PLACEHOLDERS[key]).join(values[key]);
  return out;
}
