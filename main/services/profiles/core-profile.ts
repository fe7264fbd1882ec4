/** A stored profile as the core's ProfileInput: the same fields, with the token choice in the client's terms. */
import type { ProfileFields } from '../../../shared/domain/profile';
import type { ProfileInput } from '../../core';

export function toCoreProfile(fields: ProfileFields): ProfileInput {
  const { token, name: _name, pollIntervals: _poll, ...rest } = fields;
  return {
    ...rest,
    token: token.secretStorage === 'file' ? { kind: 'file', path: token.tokenFile } : { kind: 'secret', tokenId: token.tokenId },
  };
}
