import { describe, expect, it } from 'vitest';
import { fixture } from '../../../fixtures';
import { apiErrorFromAnswer } from '../../../main/core/pve/answer';
import { TlsVerificationError, TokenFileError, TransportError } from '../../../main/core/pve/errors';
import { explainPveFailure } from '../../../main/core/pve/explain';

const call = { method: 'DELETE', path: '/nodes/pv1-1/storage/local/content/local%3Aiso%2Fx.iso' };
const answer = (name: string) => {
  const f = fixture(name);
  return apiErrorFromAnswer(f.status, f.reason, f.body, call);
};

describe('explainPveFailure', () => {
  it('a 403 names the privilege and the path to grant it on', () => {
    const e = explainPveFailure('delete', answer('err_forbidden_volume_delete'));
    expect(e.kind).toBe('permanent');
    expect(e.message).toContain('DELETE /nodes/pv1-1/storage/local/content/');
    expect(e.hint).toContain('Grant Datastore.Allocate on /storage/local');
  });

  it('a 401 points at the token', () => {
    expect(explainPveFailure('check', answer('err_auth_failed')).hint).toMatch(/token id/);
  });

  it('a missing VM is not-found with a refresh hint, and transient during create', () => {
    expect(explainPveFailure('get', answer('err_config_missing'))).toMatchObject({
      kind: 'not-found',
      hint: expect.stringMatching(/gone/),
    });
    expect(explainPveFailure('create', answer('err_config_missing')).kind).toBe('transient');
  });

  it('a missing storage asks for an existing one', () => {
    expect(explainPveFailure('check', answer('storage_status_missing')).hint).toMatch(/storage that exists/);
  });

  it('TLS, token-file and network failures each carry their own hint', () => {
    expect(explainPveFailure('check', new TlsVerificationError('hostname', 'x')).hint).toMatch(/TLS server name/);
    expect(explainPveFailure('check', new TokenFileError('missing', '/t'))).toMatchObject({ kind: 'transient' });
    expect(explainPveFailure('check', new TokenFileError('malformed', '/t'))).toMatchObject({ kind: 'permanent' });
    expect(explainPveFailure('get', new TransportError('timeout', 'slow')).hint).toMatch(/timeout/);
  });
});
