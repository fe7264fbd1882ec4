/** Issue 25: the reason a failed task's log tail gives, and its class (main/core/pve/task-reasons.ts). */
import { describe, expect, it } from 'vitest';
import { classifyTaskReason, taskFailureReason } from '../../../main/core/pve/task-reasons';

describe('taskFailureReason', () => {
  it('reads a real migrate log (AbstractMigrate.pm stamps its lines) past "migration aborted"', () => {
    const lines = [
      "2025-06-29 20:53:55 ERROR: migration aborted (duration 00:00:00): can't migrate VM which uses local devices: usb1, hostpci0",
      'TASK ERROR: migration aborted',
    ];
    const reason = taskFailureReason(lines, 'migration aborted');
    expect(reason).toBe("can't migrate VM which uses local devices: usb1, hostpci0");
    expect(classifyTaskReason(reason)).toEqual({ kind: 'permanent', hint: expect.stringMatching(/Remove usb1, hostpci0/) });
  });

  it('names the volumes a volume scan could not move', () => {
    const lines = [
      "WARN: can't migrate local disk 'proxy-seeds:iso/p-seed.iso': local cdrom image",
      "ERROR: Problem found while scanning volumes - can't migrate VM - check log",
      "ERROR: migration aborted (duration 00:00:00): Problem found while scanning volumes - can't migrate VM - check log",
      'TASK ERROR: migration aborted',
    ];
    const reason = taskFailureReason(lines, 'migration aborted');
    expect(reason).toBe("can't migrate local disk 'proxy-seeds:iso/p-seed.iso': local cdrom image");
    expect(classifyTaskReason(reason).kind).toBe('permanent');
  });

  it('says nothing beyond an exit status the log only repeats, and keeps an unknown reason transient', () => {
    expect(taskFailureReason(['starting VM', 'TASK ERROR: start failed: QEMU exited with code 1'], 'start failed: QEMU exited with code 1')).toBeUndefined();
    expect(classifyTaskReason("Can't connect to destination address using public key")).toEqual({ kind: 'transient' });
    expect(classifyTaskReason(undefined)).toEqual({ kind: 'transient' });
  });
});
