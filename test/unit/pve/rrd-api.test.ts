/**
 * The RRD answers' schemas (main/core/pve/rrd-api.ts), table-driven over the shapes every release sends, and
 * the missing-file answer turned into RrdMissingError (not-found) while every other failure passes unchanged.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, classifyApiFailure } from '../../../main/core/pve/errors';
import { NodeRrdSchema, rrdMethods, RrdMissingError, VmRrdSchema } from '../../../main/core/pve/rrd-api';

describe('VM rrddata rows', () => {
  const cases: [string, unknown, Record<string, number | undefined>][] = [
    [
      '8.4 (pve2-vm): the ten fields',
      {
        time: 1_700_000_060,
        maxcpu: 2,
        cpu: 0.0412,
        maxmem: 1073741824,
        mem: 412_000_000,
        maxdisk: 8589934592,
        disk: 0,
        netin: 2048.5,
        netout: 1999.1,
        diskread: 0,
        diskwrite: 512,
      },
      { time: 1_700_000_060, cpu: 0.0412, mem: 412_000_000, netin: 2048.5, diskwrite: 512 },
    ],
    [
      '9.2 (pve-vm-9.0): memhost and pressures beside them',
      { time: 1_700_000_060, cpu: 0.5, mem: 1, maxmem: 2, memhost: 3, pressurecpusome: 0.1, pressureiofull: 0 },
      { cpu: 0.5, memhost: 3 },
    ],
    [
      'a stopped VM: sizes only, the rest absent',
      { time: 60, maxcpu: 1, maxmem: 536870912, maxdisk: 1, disk: 0 },
      { cpu: undefined, mem: undefined, netin: undefined, maxmem: 536870912 },
    ],
    ['a row before the file was written: time only', { time: 120 }, { time: 120, cpu: undefined, maxmem: undefined }],
    [
      'numbers as strings, nulls and NaN text read as missing',
      { time: '180', cpu: '0.25', mem: null, netin: 'NaN' },
      { time: 180, cpu: 0.25, mem: undefined, netin: undefined },
    ],
  ];
  for (const [name, row, expected] of cases) {
    it(name, () => {
      const [parsed] = VmRrdSchema.parse([row]);
      for (const [k, v] of Object.entries(expected)) expect(parsed![k as keyof typeof parsed], k).toBe(v);
    });
  }

  it('refuses a row without a time', () => {
    expect(VmRrdSchema.safeParse([{ cpu: 0.1 }]).success).toBe(false);
    expect(VmRrdSchema.safeParse({ time: 1 }).success).toBe(false);
  });
});

describe('node rrddata rows', () => {
  it.each([
    [
      '8.4: no memavailable',
      { time: 60, cpu: 0.1, memtotal: 100, memused: 40, netin: 5, loadavg: 1.5 },
      { memused: 40, memavailable: undefined },
    ],
    ['9.2: memavailable and arcsize', { time: 60, memtotal: 100, memused: 40, memavailable: 60, arcsize: 0 }, { memavailable: 60 }],
  ])('%s', (_name, row, expected) => {
    const [parsed] = NodeRrdSchema.parse([row]);
    for (const [k, v] of Object.entries(expected)) expect(parsed![k as keyof typeof parsed], k).toBe(v);
  });
});

describe('a missing RRD file', () => {
  const call = { method: 'GET', path: '/nodes/pv1-1/qemu/777/rrddata' };
  const failing = (err: unknown) => rrdMethods(() => Promise.reject(err));

  it('becomes RrdMissingError, not-found, with a plain message', async () => {
    const err = new ApiError({
      status: 500,
      message:
        "RRD error: rrdcached@unix:/var/run/rrdcached.sock: rrd_fetch_r failed: opening '/var/lib/rrdcached/db/pve-vm-9.0/777': No such file or directory",
      call,
    });
    const thrown = await failing(err)
      .vmRrd('pv1-1', 777, 'hour')
      .catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(RrdMissingError);
    expect(classifyApiFailure('rrd', thrown)).toBe('not-found');
    expect((thrown as Error).message).toMatch(/^No history yet for this VM/);
  });

  it('leaves every other failure as it was', async () => {
    for (const err of [
      new ApiError({ status: 500, message: 'RRD error: mmaping file: Invalid argument', call }),
      new ApiError({ status: 403, message: 'Permission check failed (/vms/777, VM.Audit)', call }),
    ]) {
      expect(
        await failing(err)
          .vmRrd('pv1-1', 777, 'hour')
          .catch((e: unknown) => e),
      ).toBe(err);
    }
  });
});
