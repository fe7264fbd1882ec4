/**
 * What the doctor says about the Proxmox VE release it found: plain notes on
 * what that release changes for Egress Desk, and whether it is one we test
 * (7.4, 8.x, 9.x; the simulator's profiles in main/simulator/versions.ts).
 * Older releases are warned about, not refused: they may work, but nothing
 * here has been checked against them.
 */

export interface VersionNotes {
  /** `major.minor` as read from the answer, when it could be read. */
  release: string | undefined;
  /** False for a release older than 7.4 or one that could not be read. */
  supported: boolean;
  notes: string[];
  /** What to do when not supported; empty otherwise. */
  hint: string;
}

/** `7.4-19`, `8.4.21`, `9.2.20` or a bare `9.2`, with `release` (`x.y`) preferred when given. */
export function parseRelease(version: string, release?: string): { major: number; minor: number } | undefined {
  const m = /^(\d+)\.(\d+)/.exec(release?.trim() || version.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
}

const atLeast = (v: { major: number; minor: number }, major: number, minor: number) =>
  v.major > major || (v.major === major && v.minor >= minor);

export function versionNotes(version: string, release?: string): VersionNotes {
  const v = parseRelease(version, release);
  if (!v) {
    return {
      release: undefined,
      supported: false,
      notes: [`Proxmox VE reported the version "${version}", which Egress Desk cannot read.`],
      hint: 'Egress Desk is tested with Proxmox VE 7.4, 8.x and 9.x; check the URL points at a Proxmox VE node.',
    };
  }
  const name = `Proxmox VE ${v.major}.${v.minor}`;
  if (!atLeast(v, 7, 4)) {
    return {
      release: `${v.major}.${v.minor}`,
      supported: false,
      notes: [`${name} is older than 7.4, the oldest release Egress Desk is tested with; it may work, but nothing is checked against it.`],
      hint: 'Upgrade to Proxmox VE 7.4 or newer (8.x or 9.x recommended); Egress Desk still tries, but an answer it does not know may stop a step.',
    };
  }
  const notes: string[] = [];
  // qemu-server 8.0.2 (606d9d76) made resize a task.
  notes.push(
    atLeast(v, 8, 0)
      ? `${name}: disk resize runs as a task, which Egress Desk waits on; supported.`
      : `${name}: disk resize finishes at once (no task); supported.`,
  );
  // pve-storage 9.1.5 (7ce747e, 225a872): inactive qcow2 volumes on LVM list an approximate size.
  if (atLeast(v, 9, 0))
    notes.push(`${name}: storage listings may give an approximate size for qcow2 disks on LVM; sizes shown for them are approximate.`);
  // pve-manager 8.1.0 (20ad4e0e) added current-kernel; older releases only have kversion.
  if (!atLeast(v, 8, 1)) notes.push(`${name}: the node's kernel is read from its version text (no current-kernel field); supported.`);
  if (v.major > 9) notes.push(`${name} is newer than the releases Egress Desk is tested with (7.4, 8.x, 9.x); it should work.`);
  return { release: `${v.major}.${v.minor}`, supported: true, notes, hint: '' };
}
