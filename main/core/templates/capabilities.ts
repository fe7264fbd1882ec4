/**
 * Which Proxmox VE releases can build a template over the API alone
 * (issue 14), read from the node's pve-manager version.
 *
 * The API path needs three things, each dated by its package's
 * debian/changelog (github.com/proxmox/*):
 * - the `import` storage content type: pve-storage 8.1.1 ("storage plugins: add
 *   'import' content type", with the ESXi import; PVE 8.2);
 * - download-url taking a disk image for `content=import`: pve-storage 8.2.8 added
 *   `import` to download-url's `content` enum for .ova only (40df25d, 2024-11-18);
 *   pve-storage 8.3.6 (76f695f, 2025-04-07, "import: allow upload of guest images
 *   files into import storage") widened it to .qcow2/.raw/.vmdk. PVE 8.4 (released
 *   2025-04-09) is the first release that ships it, so 8.4 is the floor;
 * - `import-from` naming an `import` volume on VM create: qemu-server 8.2.7
 *   (0d41c7f5 "api: create: implement extracting disks when needed for import-from",
 *   which accepts vtype 'images' or 'import') with pve-storage 8.2.8's access check
 *   (357deeb "add 'import' content type to 'check_volume_access'"), both PVE 8.3.
 * `import-from` with an absolute path (root's shell, the fallback below) exists
 * since qemu-server 7.2-1 ("api: support VM disk import", PVE 7.2).
 */

export type BuildPath = 'api' | 'shell';

export interface PveRelease {
  major: number;
  minor: number;
  /** As the node wrote it: `8.4.21`, `7.4-19`. */
  text: string;
}

/** `pve-manager/8.4.21/2606ac85…`, `8.4.21` or `7.4-19` → 8.4 / 7.4. */
export function parsePveRelease(text: string | undefined): PveRelease | undefined {
  const m = /(\d+)\.(\d+)(?:[.-]\d+)?/.exec((text ?? '').replace(/^pve-manager\//, ''));
  return m ? { major: Number(m[1]), minor: Number(m[2]), text: m[0] } : undefined;
}

export const API_PATH_FLOOR = { major: 8, minor: 4 } as const;
export const IMPORT_FROM_PATH_FLOOR = { major: 7, minor: 2 } as const;

const atLeast = (r: PveRelease, f: { major: number; minor: number }) => r.major > f.major || (r.major === f.major && r.minor >= f.minor);

export interface PathChoice {
  path: BuildPath;
  /** Why the API path is not available, for the UI. */
  reason?: string;
  /** The shell recipe uses `import-from=<absolute path>` (7.2+) or `qm importdisk` (older). */
  shellImport: 'import-from' | 'importdisk';
}

export function buildPathFor(release: PveRelease | undefined): PathChoice {
  if (!release)
    return {
      path: 'shell',
      reason: "the node's Proxmox VE version could not be read, so the API path is not assumed",
      shellImport: 'import-from',
    };
  if (atLeast(release, API_PATH_FLOOR)) return { path: 'api', shellImport: 'import-from' };
  return {
    path: 'shell',
    reason: `Proxmox VE ${release.text} cannot download a disk image to a storage over the API (download-url takes content "import" for disk images from PVE 8.4, pve-storage 8.3.6)`,
    shellImport: atLeast(release, IMPORT_FROM_PATH_FLOOR) ? 'import-from' : 'importdisk',
  };
}
