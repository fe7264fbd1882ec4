/**
 * How far a Proxmox `download-url` task has got, read from its task log:
 * pve-common's download_file_from_url runs wget with `--progress=dot:giga`,
 * whose rows read
 *
 *      0K ........ ........ ........ ........  9% 12.3M 27s
 *  32768K ........ ........ ........ ........ 18% 11.9M 25s
 *  ...
 * 327680K ........ ........ ..               100% 12.1M=29s
 *
 * (the offset in KiB, one dot per MiB, 32 to a row; the percentage; the rate
 * over that row, 1024-based; then the time left, or `=` and the time taken on
 * the last row), after `Length: <bytes> (<size>) [<type>]`, and end with
 * `… saved [<bytes>/<bytes>]`. Pure, for the renderer and main alike.
 */

export interface DownloadProgress {
  /** Bytes received so far (at the end of the last row read). */
  bytes: number;
  /** What the server said the file holds (`Length:`). */
  totalBytes?: number;
  /** 0..100, as wget printed it. */
  percent?: number;
  /** Bytes per second over the last row. */
  bytesPerSecond?: number;
  /** wget's estimate of the time left (`27s`, `1m2s`), while it runs. */
  eta?: string;
  /** The time the whole download took, once wget printed its last row. */
  took?: string;
  /** wget said the file was saved. */
  done: boolean;
}

const MiB = 1024 * 1024;
const UNIT: Record<string, number> = { '': 1, K: 1024, M: MiB, G: 1024 * MiB };

const ROW = /^\s*(\d+)K([ .]+?)\s*(\d{1,3})%\s+([\d.]+)([KMG]?)(=|\s+)(\S+)\s*$/;
const LENGTH = /^Length:\s+(\d+)/;
const SAVED = /saved \[(\d+)(?:\/(\d+))?\]/;

/** Undefined until the log shows a Length or a row: before that, nothing is known. */
export function parseDownloadProgress(lines: readonly string[]): DownloadProgress | undefined {
  let out: DownloadProgress | undefined;
  const at = () => (out ??= { bytes: 0, done: false });
  for (const line of lines) {
    const length = LENGTH.exec(line);
    if (length) {
      at().totalBytes = Number(length[1]);
      continue;
    }
    const row = ROW.exec(line);
    if (row) {
      const p = at();
      const dots = (row[2]!.match(/\./g) ?? []).length;
      const end = Number(row[1]) * 1024 + dots * MiB;
      p.percent = Number(row[3]);
      p.bytes = p.totalBytes !== undefined ? Math.min(p.totalBytes, p.percent === 100 ? p.totalBytes : end) : end;
      p.bytesPerSecond = Number(row[4]) * UNIT[row[5] ?? '']!;
      if (row[6] === '=') {
        p.took = row[7]!;
        delete p.eta;
      } else p.eta = row[7]!;
      continue;
    }
    const saved = SAVED.exec(line);
    if (saved) {
      const p = at();
      p.bytes = Number(saved[1]);
      p.totalBytes ??= Number(saved[2] ?? saved[1]);
      p.percent = 100;
      p.done = true;
      delete p.eta;
    }
  }
  return out;
}

/** `350.0 MiB`, in the app's 1024-based units. */
export function formatDownloadBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}
