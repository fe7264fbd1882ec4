import { describe, expect, it } from 'vitest';
import { fixtureJson, fixtureNames } from '../../../fixtures';
import { formatUpid, parseUpid, taskSucceeded } from '../../../main/core/pve/upid';
import { UpidSchema } from '../../../main/core/pve/schemas';

const upidAnswers = fixtureNames().filter((n) => {
  const data = fixtureJson<{ data?: unknown }>(n)?.data;
  return typeof data === 'string' && data.startsWith('UPID:');
});

describe('UPID', () => {
  it('finds UPIDs in the captured and reconstructed answers', () => {
    expect(upidAnswers).toEqual(
      expect.arrayContaining(['clone_response', 'destroy_response', 'content_delete_response', 'upload_response']),
    );
  });

  it.each(upidAnswers)('%s parses, round-trips and passes the schema', (name) => {
    const upid = fixtureJson<{ data: string }>(name)!.data;
    const parsed = parseUpid(upid);
    expect(parsed.node).toBe('pv1-1');
    expect(parsed.user).toBe('proxy-operator@pve!operator');
    expect(formatUpid(parsed)).toBe(upid);
    expect(UpidSchema.safeParse(upid).success).toBe(true);
  });

  it('reads the fields of the captured clone UPID', () => {
    const p = parseUpid(fixtureJson<{ data: string }>('clone_response')!.data);
    expect(p).toMatchObject({ type: 'qmclone', id: '9001', pid: 0x0010f9dc });
    expect(new Date(p.starttime * 1000).getUTCFullYear()).toBe(2026);
  });

  it('refuses what is not a UPID', () => {
    expect(() => parseUpid('UPID:pv1-1:zz')).toThrow(/not a Proxmox task id/);
    expect(UpidSchema.safeParse('OK').success).toBe(false);
  });

  it('a task succeeded on OK or WARNINGS: n, and failed on any other text', () => {
    expect(taskSucceeded('OK')).toBe(true);
    expect(taskSucceeded('WARNINGS: 3')).toBe(true);
    expect(taskSucceeded(fixtureJson<{ data: { exitstatus: string } }>('task_status_stopped_error')!.data.exitstatus)).toBe(false);
    expect(taskSucceeded(undefined)).toBe(false);
  });
});
