/**
 * The doctor's token step: `GET /version` with the token. A refusal is
 * explained (the two 401s of F22); no token at all is a first contact that
 * still proves the URL is a Proxmox API.
 */
import { isApiError, type PveApi, type TlsChoice, TlsVerificationError, TokenFileError, TransportError } from '../../core';
import type { TokenSection } from '../../../shared/channels/doctor';
import { anonymousVersion } from './anonymous-version';
import { explainAuthFailure } from './auth-answers';
import { blocked, errorText, passed } from './section';
import { versionNotes } from './version-notes';

export interface TokenProbe {
  /** The client with the token; absent when no token was given. */
  api?: PveApi;
  tokenId?: string;
  url: string;
  tls: TlsChoice;
  timeoutMs: number;
  signal?: AbortSignal;
}

function refused(e: unknown, tokenId: string | undefined): TokenSection {
  const data: TokenSection['data'] = tokenId ? { tokenId } : {};
  if (isApiError(e) && e.status === 401) {
    const why = explainAuthFailure(e, tokenId);
    return {
      ...blocked('fail', why.message, why.hint),
      data: { ...data, answer: { status: e.status, text: e.message }, cause: why.cause },
    };
  }
  if (isApiError(e)) {
    return {
      ...blocked('fail', `Proxmox refused GET /version: ${e.describe()}.`, 'Check that the URL points at the Proxmox API (port 8006).'),
      data: { ...data, answer: { status: e.status, text: e.message }, cause: 'other' },
    };
  }
  if (e instanceof TokenFileError)
    return { ...blocked('fail', e.message, 'Fix the token file, or enter the token here.'), data: { ...data, cause: 'other' } };
  const unreachable = e instanceof TransportError || e instanceof TlsVerificationError;
  return {
    ...blocked('fail', `GET /version failed: ${errorText(e)}`, 'Check that the node is up and reachable, then run the check again.'),
    data: { ...data, cause: unreachable ? 'unreachable' : 'other' },
  };
}

export async function checkToken(p: TokenProbe): Promise<TokenSection> {
  if (!p.api) {
    try {
      await anonymousVersion(p.url, p.tls, p.timeoutMs, p.signal);
    } catch (e) {
      p.signal?.throwIfAborted();
      return refused(e, p.tokenId);
    }
    return {
      ...blocked(
        'fail',
        'Proxmox answered without any token: this is not a normal Proxmox API.',
        'Check the URL: it should be the node, port 8006.',
      ),
      data: { cause: 'other' },
    };
  }
  try {
    const v = await p.api.version({ signal: p.signal });
    // A release older than 7.4 is a warning, never a block: it may work, we only cannot vouch for it.
    const known = versionNotes(v.version, v.release);
    return {
      ...passed(
        known.supported ? 'ok' : 'warn',
        `The token ${p.tokenId ?? ''} works: Proxmox VE ${v.version} (release ${v.release}).`,
        known.hint,
      ),
      data: { ...(p.tokenId ? { tokenId: p.tokenId } : {}), version: v.version, release: v.release, versionNotes: known.notes },
    };
  } catch (e) {
    p.signal?.throwIfAborted();
    return refused(e, p.tokenId);
  }
}
