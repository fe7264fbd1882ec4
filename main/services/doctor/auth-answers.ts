/**
 * The two 401s of F22, explained. Proxmox puts the text in the reason
 * phrase only (F1); the texts come from the fixtures, never typed here.
 */
import { fixtureMessage } from '../../../fixtures';
import type { ApiError } from '../../core';
import type { TokenSection } from '../../../shared/channels/doctor';

export type AuthCause = NonNullable<TokenSection['data']['cause']>;

export interface AuthExplanation {
  cause: AuthCause;
  message: string;
  hint: string;
}

export function explainAuthFailure(err: ApiError, tokenId: string | undefined): AuthExplanation {
  const said = `Proxmox answered ${err.status} "${err.message}"`;
  const user = tokenId?.split('!')[0] ?? '<user>@<realm>';
  if (err.message === fixtureMessage('err_auth_failed')) {
    return {
      cause: 'wrong-token',
      message: `${said}: the token ${tokenId ?? ''} does not exist, or the secret is not its secret (Proxmox gives the same answer for both).`,
      hint:
        `Check the token id is exactly user@realm!tokenid as \`pveum user token list ${user}\` lists it, and paste the secret printed when the token was made. ` +
        `A lost secret cannot be read back: make a new token with \`pveum user token add ${user} <name> --privsep 1\` and grant it the roles as the user guide does (\`pveum aclmod / -token '${user}!<name>' -role ProxyOperator\`, and the seed role on the seed storage).`,
    };
  }
  if (err.message === fixtureMessage('err_no_ticket')) {
    return {
      cause: 'no-credentials',
      message: `${said}: the request reached Proxmox without an API token.`,
      hint:
        'Enter the token secret. If you did, something between this computer and Proxmox (a reverse proxy) drops the Authorization header: ' +
        'connect to the node on port 8006 directly, or let the proxy pass that header.',
    };
  }
  return {
    cause: 'other',
    message: `${said}.`,
    hint: 'Check the token id and secret; if they are right, check the Proxmox log (journalctl -u pveproxy) on the node.',
  };
}
