/**
 * Issue 26: the one line `user@realm!tokenid=secret` of a cluster's API
 * token, for the hand-off bundle's `proxmox-token` file only (the operator's
 * Secret, key `token`). A secret the app keeps comes from the profile's own
 * sealed secret (the keeper answers by profile id, so a profile never gets
 * another's); a token file is read as every request reads it. The secret is
 * registered with the log redactor, and no error here quotes it.
 */
import { readToken, TokenFileError } from '../../core';
import { AppError } from '../../errors/app-error';
import type { StoredProfile } from './document';

export async function profileTokenLine(profile: StoredProfile, secret: () => Promise<string>): Promise<string> {
  const token = profile.token;
  try {
    const read = await readToken(token.secretStorage === 'file' ? { kind: 'file', path: token.tokenFile } : { kind: 'secret', tokenId: token.tokenId, secret });
    if (/\s/.test(read.secret) || read.secret.length === 0)
      throw new AppError(
        'permanent',
        `The token secret kept for cluster "${profile.name}" is not one word, so it cannot be the token file's one line.`,
        "Enter the token secret again in the cluster's settings, or leave the token out of the bundle.",
      );
    return `${read.tokenId}=${read.secret}`;
  } catch (err) {
    if (err instanceof TokenFileError)
      throw new AppError(
        err.failureClass === 'transient' ? 'transient' : 'permanent',
        `${err.message} The bundle cannot carry the token.`,
        `Fix the token file of cluster "${profile.name}", or leave the token out of the bundle (its README then says where to put it).`,
      );
    throw err;
  }
}
