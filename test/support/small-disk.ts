/**
 * A real small disk for data-folder faults: a tmpfs mounted on a fresh
 * folder, which a test fills up (disk full) or remounts read-only. Needs
 * root and a kernel that lets it mount (CI runs as root); `smallDiskMissing`
 * says why not, so a test can skip with that reason.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PAGE = 4096;
const FILLER = '.filler';

function mount(args: string[]): void {
  execFileSync('mount', args, { stdio: 'pipe' });
}

let probed: string | null | undefined;

/** Why a small disk cannot be mounted here, or undefined when it can. */
export function smallDiskMissing(): string | undefined {
  if (probed === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'egress-mount-probe-'));
    try {
      if (process.platform !== 'linux') throw new Error(`mount -t tmpfs is Linux only (this is ${process.platform})`);
      mount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
      execFileSync('umount', [dir], { stdio: 'pipe' });
      probed = null;
    } catch (e) {
      probed = `cannot mount a tmpfs here (${(e as Error).message.split('\n')[0]})`;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return probed ?? undefined;
}

export interface SmallDisk {
  /** The mounted folder. */
  dir: string;
  /**
   * Fills the disk: a filler file takes every free block, and each of `files` gets the rest of its last block
   * padded with a blank line (the journal skips blank lines), so the next byte anyone appends anywhere fails with ENOSPC
   * — or, with `leaveBytes`, a write longer than that is cut short (part of it written, then ENOSPC).
   */
  fill(files?: string[], leaveBytes?: number): void;
  /** Frees the space the filler took. */
  free(): void;
  readOnly(): void;
  writable(): void;
  unmount(): void;
}

export function mountSmallDisk(sizeKiB = 1024): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'egress-small-disk-'));
  mount(['-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0700`, 'tmpfs', dir]);
  return {
    dir,
    fill(files = [], leaveBytes = 0) {
      const fd = openSync(join(dir, FILLER), 'a');
      const block = Buffer.alloc(PAGE, 0x2e);
      try {
        for (;;) writeSync(fd, block);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
      for (const file of files) {
        const rest = (PAGE - (statSync(file).size % PAGE)) % PAGE;
        if (rest > leaveBytes) appendFileSync(file, ' '.repeat(rest - leaveBytes - 1) + '\n');
      }
    },
    free() {
      rmSync(join(dir, FILLER), { force: true });
    },
    readOnly() {
      mount(['-o', 'remount,ro', dir]);
    },
    writable() {
      mount(['-o', 'remount,rw', dir]);
    },
    unmount() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
