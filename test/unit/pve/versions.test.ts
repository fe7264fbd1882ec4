/**
 * Proxmox VE 7.4, 8.x and 9.x answer shapes, driven by the reconstructed
 * bodies in fixtures/ (each cites the Proxmox source it follows): the 7.4
 * resize that answers null, the agent's refusal at 200, approximate-size.
 */
import { describe, expect, it } from 'vitest';
import { fixture, fixtureJson } from '../../../fixtures';
import { readData } from '../../../main/core/pve/answer';
import { AgentRefusedError, classifyApiFailure, ResponseShapeError } from '../../../main/core/pve/errors';
import { explainPveFailure } from '../../../main/core/pve/explain';
import * as S from '../../../main/core/pve/schemas';
import { nodeStatusFor, VERSION_PROFILES } from '../../../main/simulator/versions';

const site = { method: 'GET', path: '/nodes/pv1-1/qemu/199999/agent/network-get-interfaces' };
const body = (name: string) => fixture(name).body;
const data = (name: string) => fixtureJson<{ data: unknown }>(name)!.data;

describe('every reconstructed version body is marked as such and cites its source', () => {
  it.each([
    'resize_pve74_response',
    'agent_command_disabled',
    'agent_error_generic',
    'storage_content_lvm_approximate',
    'version_pve74',
    'version_pve84',
  ])('%s', (name) => {
    const f = fixture(name);
    expect(f.status).toBe(200);
    expect(f.reconstructed?.fact).toMatch(/qemu-server|pve-storage|pve-manager/);
    expect(f.reconstructed?.note).toMatch(/Never captured/);
  });
});

describe('resize: a task from PVE 8.0 on, null on 7.4', () => {
  it.each([
    ['resize_pve74_response', null],
    ['resize_same_size_response', expect.stringMatching(/^UPID:.*:qmresize:/)],
    ['resize_shrink_response', expect.stringMatching(/^UPID:/)],
  ])('%s', (name, expected) => {
    expect(readData(S.MaybeUpidSchema, body(name), { method: 'PUT', path: '/nodes/pv1-1/qemu/199999/resize' })).toEqual(expected);
  });

  it('still refuses a body that is neither', () => {
    expect(() => readData(S.MaybeUpidSchema, '{"data":"done"}', site)).toThrow(ResponseShapeError);
    expect(() => readData(S.MaybeUpidSchema, '{}', site)).toThrow(ResponseShapeError);
  });
});

describe("the guest agent's own refusal (200 with result.error)", () => {
  it.each([
    ['agent_command_disabled', 'CommandNotFound', 'permanent', /allow-rpcs/],
    ['agent_error_generic', 'GenericError', 'transient', /asked again/],
  ] as const)('%s: %s is %s, with a hint', (name, agentClass, kind, hint) => {
    const answer = readData(S.AgentNetworkAnswerSchema, body(name), site);
    expect(answer).toMatchObject({ refused: true, agentClass });
    if (!answer.refused) throw new Error('not a refusal');
    const err = new AgentRefusedError(answer.agentClass, answer.desc, site);
    expect(err.message).toBe(`agent refused: ${agentClass}: ${(data(name) as { result: { error: { desc: string } } }).result.error.desc}`);
    expect(classifyApiFailure('get', err)).toBe(kind);
    expect(explainPveFailure('get', err)).toEqual({ kind, message: err.message, hint: expect.stringMatching(hint) });
  });

  it.each([
    ['CommandNotFound', 'The command guest-network-get-interfaces has not been found', 'permanent'],
    ['CommandDisabled', 'The command guest-network-get-interfaces has been disabled for this instance', 'permanent'],
    ['GenericError', 'The command guest-network-get-interfaces has been disabled for this instance', 'permanent'],
    ['GenericError', 'Guest agent command failed, error was: timeout', 'transient'],
    ['DeviceNotActive', 'guest agent not connected', 'transient'],
  ])('%s "%s" is %s', (agentClass, desc, kind) => {
    expect(new AgentRefusedError(agentClass, desc, site).failureClass).toBe(kind);
  });

  it('the hint names the command from the path', () => {
    expect(new AgentRefusedError('CommandNotFound', 'x', site).hint).toMatch(/guest-network-get-interfaces/);
  });

  it('a normal answer still gives the interfaces (F21)', () => {
    const answer = readData(S.AgentNetworkAnswerSchema, body('agent_network_get_interfaces'), site);
    expect(answer.refused).toBe(false);
    if (answer.refused) throw new Error('refused');
    expect(answer.interfaces.map((i) => i.name)).toEqual(['lo', 'ens18']);
  });

  it('an answer that is neither is still a shape error', () => {
    expect(() => readData(S.AgentNetworkAnswerSchema, '{"data":{"result":{"oops":1}}}', site)).toThrow(ResponseShapeError);
  });
});

describe('content listings: size from approximate-size when size is absent (pve-storage 9.1.5)', () => {
  it('reads the reconstructed LVM listing', () => {
    const list = S.StorageContentSchema.parse(data('storage_content_lvm_approximate'));
    expect(list.map((v) => [v.volid, v.size, v.sizeKind])).toEqual([
      ['lvm-shared:vm-120-disk-0.qcow2', 8598323200, 'approximate'],
      ['lvm-shared:vm-121-disk-0.qcow2', 8589934592, 'exact'],
    ]);
    expect(list[0]).not.toHaveProperty('approximate-size');
  });

  it('keeps the exact size of the ISO listing, and reads neither as unknown', () => {
    expect(S.StorageContentSchema.parse(data('storage_content_iso'))[0]).toMatchObject({ size: 45056, sizeKind: 'exact' });
    expect(S.StorageVolumeSchema.parse({ volid: 'x:1', format: 'raw', content: 'images' })).toMatchObject({ size: 0, sizeKind: 'unknown' });
    expect(S.StorageVolumeSchema.parse({ volid: 'x:1', format: 'raw', content: 'images', size: 1, 'approximate-size': 2 }).size).toBe(1);
  });
});

describe('/version and node status on each release', () => {
  it.each([
    ['version_pve74', { release: '7.4', version: '7.4-19', repoid: 'f98bf8d4' }],
    ['version_pve84', { release: '8.4', version: '8.4.21', repoid: '2606ac850d46da29' }],
    ['version', { release: '9.2', version: '9.2.20', repoid: '49318c671b82f31e' }],
  ])('%s', (name, expected) => {
    expect(S.VersionSchema.parse(data(name))).toEqual(expected);
  });

  it('node status: the kernel from current-kernel (8.1+) or from kversion (7.4)', () => {
    const captured = data('node_status') as Record<string, unknown>;
    const on74 = nodeStatusFor(VERSION_PROFILES['7.4'], captured);
    expect(on74).not.toHaveProperty('current-kernel');
    expect(on74.memory).not.toHaveProperty('available');
    expect(S.NodeStatusSchema.parse(on74)).toMatchObject({ kernel: '7.0.14-17-pve', pveversion: 'pve-manager/7.4-19/f98bf8d4' });
    expect(S.NodeStatusSchema.parse(nodeStatusFor(VERSION_PROFILES['9.2'], captured)).kernel).toBe('7.0.14-17-pve');
  });
});
