/**
 * Spec entry 13, row by row, against the fixtures: every Proxmox text the
 * matchers know comes from a captured or reconstructed answer.
 */
import { describe, expect, it } from 'vitest';
import { fixture, fixtureMessage } from '../../../fixtures';
import { apiErrorFromAnswer } from '../../../main/core/pve/answer';
import {
  ApiError,
  classifyApiFailure,
  isAgentNotConfigured,
  isAgentNotRunning,
  isAuthenticationFailure,
  isConfigAlreadyExists,
  isConfigMissing,
  isNoSuchStorage,
  isVmNotRunning,
  lockOf,
  missingPrivilege,
  ResponseShapeError,
  TaskFailedError,
  TlsVerificationError,
  TokenFileError,
  TransportError,
} from '../../../main/core/pve/errors';

const call = { method: 'GET', path: '/nodes/pv1-1/qemu/199999/config' };
const fromFixture = (name: string): ApiError => {
  const f = fixture(name);
  return apiErrorFromAnswer(f.status, f.reason, f.body, call);
};

describe('ApiError from an answer (F1)', () => {
  it('takes the body message without its trailing newline', () => {
    const err = fromFixture('err_config_missing');
    expect(err.status).toBe(500);
    expect(err.message).toBe(fixtureMessage('err_config_missing'));
    expect(err.message.endsWith('\n')).toBe(false);
  });

  it('falls back to the reason phrase when a 401 has no body', () => {
    for (const name of ['err_auth_failed', 'err_no_ticket']) {
      expect(fixture(name).body).toBe('');
      expect(fromFixture(name).message).toBe(fixture(name).reason);
    }
  });

  it('keeps the 400 field map and names the call in its description, without a query', () => {
    const err = fromFixture('err_bad_param');
    expect(err.errors).toEqual(JSON.parse(fixture('err_bad_param').body).errors);
    expect(err.describe()).toContain('GET /nodes/pv1-1/qemu/199999/config: 400');
    expect(err.describe()).toContain('newid: ');
  });
});

type Row = [fixtureName: string, op: string, expected: ReturnType<typeof classifyApiFailure>];
const rows: Row[] = [
  ['err_auth_failed', 'get', 'permanent'],
  ['err_no_ticket', 'get', 'permanent'],
  ['err_forbidden', 'get', 'permanent'],
  ['err_forbidden_volume_delete', 'delete', 'permanent'],
  ['err_bad_param', 'create', 'permanent'],
  ['err_tag_invalid', 'create', 'permanent'],
  ['err_upload_bad_name', 'create', 'permanent'],
  ['err_clone_storage_no_images', 'create', 'permanent'],
  ['storage_status_missing', 'check', 'permanent'],
  ['err_config_missing', 'get', 'not-found'],
  ['err_config_missing', 'delete', 'not-found'],
  ['err_config_missing', 'create', 'transient'],
  ['err_config_locked', 'create', 'transient'],
  ['err_clone_vmid_taken', 'create', 'transient'],
  ['err_agent_not_running', 'get', 'transient'],
  ['err_agent_unconfigured', 'get', 'transient'],
  ['err_agent_vm_stopped', 'get', 'transient'],
  ['err_proxy_595', 'get', 'transient'],
  ['err_proxy_596', 'get', 'transient'],
];

describe('classifyApiFailure: spec entry 13 table', () => {
  it.each(rows)('%s during %s is %s', (name, op, expected) => {
    expect(classifyApiFailure(op, fromFixture(name))).toBe(expected);
  });

  it('any other 4xx is permanent and any other 5xx transient', () => {
    expect(classifyApiFailure('get', new ApiError({ status: 404, message: 'Not Found', call }))).toBe('permanent');
    expect(classifyApiFailure('get', new ApiError({ status: 502, message: 'Bad Gateway', call }))).toBe('transient');
  });

  it('a failure that already knows its class keeps it', () => {
    expect(classifyApiFailure('get', new TlsVerificationError('unknown-ca', 'x'))).toBe('permanent');
    expect(classifyApiFailure('get', new TokenFileError('missing', '/t'))).toBe('transient');
    expect(classifyApiFailure('get', new TokenFileError('malformed', '/t'))).toBe('permanent');
    expect(classifyApiFailure('get', new TransportError('reset', 'socket hang up'))).toBe('transient');
    expect(classifyApiFailure('get', new TransportError('aborted', 'cancelled'))).toBe('transient');
    expect(classifyApiFailure('get', new ResponseShapeError(call, 'x'))).toBe('transient');
    expect(classifyApiFailure('create', new TaskFailedError('UPID:x', fixtureMessage('err_config_locked')))).toBe('transient');
  });

  it('anything else is transient (contract default)', () => {
    expect(classifyApiFailure('get', new Error('boom'))).toBe('transient');
    expect(classifyApiFailure('get', 'a string')).toBe('transient');
  });
});

describe('matchers fire on their own fixture and on no other', () => {
  const errorFixtures = [
    'err_agent_not_running',
    'err_agent_unconfigured',
    'err_agent_vm_stopped',
    'err_bad_param',
    'err_clone_storage_no_images',
    'err_clone_vmid_taken',
    'err_config_locked',
    'err_config_missing',
    'err_forbidden',
    'err_forbidden_volume_delete',
    'err_auth_failed',
    'err_no_ticket',
    'err_tag_invalid',
    'err_upload_bad_name',
    'storage_status_missing',
    'err_proxy_595',
    'err_proxy_596',
  ];
  const matrix: [string, (e: unknown) => boolean, string[]][] = [
    ['isConfigMissing', isConfigMissing, ['err_config_missing']],
    ['isConfigAlreadyExists', isConfigAlreadyExists, ['err_clone_vmid_taken']],
    ['isNoSuchStorage', isNoSuchStorage, ['storage_status_missing']],
    ['isAgentNotRunning', isAgentNotRunning, ['err_agent_not_running']],
    ['isAgentNotConfigured', isAgentNotConfigured, ['err_agent_unconfigured']],
    ['isVmNotRunning', isVmNotRunning, ['err_agent_vm_stopped']],
    ['lockOf', (e) => lockOf(e) !== undefined, ['err_config_locked']],
    ['missingPrivilege', (e) => missingPrivilege(e) !== undefined, ['err_forbidden', 'err_forbidden_volume_delete']],
    ['isAuthenticationFailure', isAuthenticationFailure, ['err_auth_failed', 'err_no_ticket']],
  ];
  it.each(matrix)('%s', (_name, matcher, expected) => {
    const fired = errorFixtures.filter((f) => matcher(fromFixture(f)));
    expect(fired.sort()).toEqual([...expected].sort());
  });

  it('reads the lock and the missing privilege out of the texts', () => {
    expect(lockOf(fromFixture('err_config_locked'))).toBe('clone');
    expect(missingPrivilege(fromFixture('err_forbidden_volume_delete'))).toEqual({
      path: '/storage/local',
      privilege: 'Datastore.Allocate',
    });
  });

  it('a matcher needs the status too: the same text under another status does not match', () => {
    const text = fixtureMessage('err_config_missing');
    expect(isConfigMissing(new ApiError({ status: 400, message: text, call }))).toBe(false);
  });
});
