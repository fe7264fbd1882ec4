/** The download's progress, read from wget's dot:giga rows in a download-url task log (issue 14). */
import { describe, expect, it } from 'vitest';
import { formatDownloadBytes, parseDownloadProgress } from '../../../shared/domain/wget-progress';
import { wgetRow } from '../../../main/simulator/images';

const MiB = 1024 * 1024;

describe('parseDownloadProgress', () => {
  it('knows nothing before wget printed a length or a row', () => {
    expect(parseDownloadProgress([])).toBeUndefined();
    expect(parseDownloadProgress(['downloading https://x/y.qcow2 to /var/lib/vz/import/y.qcow2'])).toBeUndefined();
  });

  it('reads real wget rows: bytes at the row end, percent, the rate and the time left', () => {
    const p = parseDownloadProgress([
      'Length: 367001600 (350M) [application/octet-stream]',
      "Saving to: '/var/lib/vz/import/debian.qcow2.tmp_dwnl.1118208'",
      '',
      '     0K ........ ........ ........ ........  9% 12.3M 27s',
      ' 32768K ........ ........ ........ ........ 18% 11.9M 25s',
    ])!;
    expect(p.totalBytes).toBe(367001600);
    expect(p.bytes).toBe(64 * MiB);
    expect(p.percent).toBe(18);
    expect(p.bytesPerSecond).toBeCloseTo(11.9 * MiB);
    expect(p.eta).toBe('25s');
    expect(p.done).toBe(false);
  });

  it('the last row (=time taken) and the saved line end it', () => {
    const p = parseDownloadProgress([
      'Length: 367001600 (350M) [application/octet-stream]',
      '327680K ........ ........ ..               100% 12.1M=29s',
      '',
      "2026-05-01 10:00:00 (12.0 MB/s) - '/var/lib/vz/import/debian.qcow2.tmp_dwnl.1' saved [367001600/367001600]",
    ])!;
    expect(p).toMatchObject({ bytes: 367001600, totalBytes: 367001600, percent: 100, took: '29s', done: true });
    expect(p.eta).toBeUndefined();
  });

  it("reads the simulator's rows the same way", () => {
    const total = 350 * MiB;
    const rows = [0, 32 * MiB, 64 * MiB].map((off) => wgetRow(off, 32 * MiB, total, 8 * MiB, ' 3s'));
    const p = parseDownloadProgress([`Length: ${total} (350M) [application/octet-stream]`, ...rows])!;
    expect(p.bytes).toBe(96 * MiB);
    expect(p.percent).toBe(27);
    expect(p.bytesPerSecond).toBe(8 * MiB);
    expect(formatDownloadBytes(p.bytes)).toBe('96.0 MiB');
  });
});
