/**
 * What a doctor run connects with: the input's URL, TLS choice and token,
 * filled in from a saved profile when a profile id is given. The secret is
 * registered with the redactor the moment it arrives.
 */
import { hasUserInfo, ProfileSchema, type TlsChoice, type TokenSource } from '../../core';
import { AppError } from '../../errors/app-error';
import { registerSecret } from '../../log/secrets';
import type { DoctorRunInput } from '../../../shared/channels/doctor';
import { refuseMovedSecret } from '../secrets/secret-origin';
import type { DoctorConnection, ResolveProfileConnection } from './ports';

export interface ResolvedConnection extends Omit<DoctorConnection, 'tls'> {
  /** Absent on a first contact: the doctor then shows the certificate and asks. */
  tls?: TlsChoice;
  /** True when the profile's own client may be used: the run overrides nothing it was built with. */
  reuseApi: boolean;
}

function checkedUrl(url: string): string {
  if (hasUserInfo(url)) {
    // Never quoted back: the text holds a password.
    throw new AppError(
      'invalid-input',
      'The URL holds a user name or password (user:pass@); the API token is the only credential.',
      'Use https://<node>:8006, with no user, password or path.',
      'url',
    );
  }
  if (!ProfileSchema.shape.url.safeParse(url).success) {
    throw new AppError('invalid-input', `"${url}" is not a Proxmox URL.`, 'Use https://<node>:8006, with no path.', 'url');
  }
  return url;
}

async function profileConnection(
  input: DoctorRunInput,
  resolve: ResolveProfileConnection | undefined,
): Promise<DoctorConnection | undefined> {
  if (input.profileId === undefined) return undefined;
  if (!resolve)
    throw new AppError('not-found', 'Saved profiles are not available here.', 'Enter the URL and the token instead.', 'profileId');
  return resolve(input.profileId);
}

/**
 * A saved profile's token (held secret or token file) goes only to the
 * server it was saved for: another URL needs the secret given again, so a
 * renderer cannot point a stored token at a host of its choosing.
 */
function refuseMovedToken(url: string, profile: DoctorConnection, input: DoctorRunInput): void {
  if (input.secret) return;
  refuseMovedSecret(profile.url, url, 'token secret');
  // Nor to the same server under a weaker or other trust (say, no verification) than the one it was saved with.
  if (input.tls !== undefined && tlsKey(input.tls) !== tlsKey(profile.tls)) {
    const host = new URL(url).host;
    throw new AppError(
      'invalid-input',
      `The certificate check changed: enter the token secret again for ${host}.`,
      'A saved token secret is only sent with the certificate check it was saved with; give it again to try another.',
      'secret',
    );
  }
}

function tlsKey(tls: TlsChoice): string {
  const t = tls as { mode: string; caPem?: string; fingerprint?: string; serverName?: string };
  return JSON.stringify([t.mode, t.caPem ?? '', t.fingerprint ?? '', t.serverName ?? '']);
}

export async function resolveConnection(input: DoctorRunInput, resolve?: ResolveProfileConnection): Promise<ResolvedConnection> {
  if (input.secret) registerSecret(input.secret);
  const profile = await profileConnection(input, resolve);
  const url = checkedUrl(input.url ?? profile?.url ?? '');
  if (profile) refuseMovedToken(url, profile, input);
  const tokenId = input.tokenId ?? profile?.tokenId;
  let token: TokenSource | undefined = profile?.token;
  if (input.secret) {
    if (!tokenId)
      throw new AppError('invalid-input', 'A secret needs its token id.', 'Enter the token id as user@realm!tokenid.', 'tokenId');
    const secret = input.secret;
    token = { kind: 'secret', tokenId, secret: () => secret };
  }
  const overrides = input.url !== undefined || input.tls !== undefined || input.secret !== undefined || input.tokenId !== undefined;
  const { api, token: _t, tokenId: _id, url: _u, tls: _tls, ...choices } = profile ?? {};
  const resolved: ResolvedConnection = { ...choices, url, reuseApi: false };
  const tls: TlsChoice | undefined = input.tls ?? profile?.tls;
  if (tls) resolved.tls = tls;
  if (token) resolved.token = token;
  if (tokenId) resolved.tokenId = tokenId;
  if (api && !overrides) {
    resolved.api = api;
    resolved.reuseApi = true;
  }
  return resolved;
}
