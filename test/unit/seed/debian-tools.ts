/**
 * Debian's own ISO readers, driven from tests: blkid (util-linux), isoinfo
 * (genisoimage package) and xorriso; and cloud-init itself. A missing tool
 * makes its tests skip with the reason printed; CI installs them with apt
 * (genisoimage, xorriso, cloud-init).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const tools = {
  blkid: '/usr/sbin/blkid',
  isoinfo: '/usr/bin/isoinfo',
  xorriso: '/usr/bin/xorriso',
  genisoimage: '/usr/bin/genisoimage',
  python3: 'python3',
  'cloud-init': '/usr/bin/cloud-init',
} as const;

export type Tool = keyof typeof tools;

function works(tool: Tool): boolean {
  if (tools[tool].startsWith('/') && !existsSync(tools[tool])) return false;
  try {
    execFileSync(tools[tool], [tool === 'blkid' ? '-V' : tool === 'isoinfo' ? '-version' : '--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const packageOf: Partial<Record<Tool, string>> = { isoinfo: 'genisoimage', blkid: 'util-linux' };

/** Why a test using `tool` cannot run, or undefined when it can; the reason is printed once. */
export function missing(tool: Tool): string | undefined {
  if (works(tool)) return undefined;
  const reason = `${tools[tool]} is not installed (apt-get install ${packageOf[tool] ?? tool}): skipping the tests that need it`;
  console.log(reason);
  return reason;
}

const BIG = 64 * 1024 * 1024;

export function scratchDir(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), 'egress-seed-'));
  return {
    path,
    remove() {
      // xorriso restores the image's read-only modes; make them writable again to delete.
      const unlock = (p: string) => {
        chmodSync(p, 0o755);
        if (statSync(p).isDirectory()) for (const child of readdirSync(p)) unlock(join(p, child));
      };
      unlock(path);
      rmSync(path, { recursive: true, force: true });
    },
  };
}

export function writeImage(dir: string, name: string, image: Uint8Array): string {
  const file = join(dir, name);
  writeFileSync(file, image);
  return file;
}

/** `blkid -p -o export`: probes the file itself (no cache) and prints KEY=value lines. */
export function blkid(file: string): Record<string, string> {
  const out = execFileSync(tools.blkid, ['-p', '-o', 'export', file], { encoding: 'utf8' });
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** `isoinfo -R -f`: every path in the image, by its Rock Ridge name (or, with rockRidge false, its plain ISO 9660 name). */
export function isoinfoPaths(file: string, rockRidge = true): string[] {
  const args = [...(rockRidge ? ['-R'] : []), '-f', '-i', file];
  return execFileSync(tools.isoinfo, args, { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
}

/** `isoinfo -R -x`: one file's bytes, extracted by its Rock Ridge path. */
export function isoinfoExtract(file: string, path: string): Buffer {
  return execFileSync(tools.isoinfo, ['-R', '-i', file, '-x', path], { maxBuffer: BIG });
}

/**
 * `xorriso -osirrox on -extract / dir`: the whole tree restored to disk, read
 * back by name, with xorriso's complaints (its WARNING, SORRY, FAILURE lines).
 */
export function xorrisoExtract(file: string, into: string): { files: Map<string, Buffer>; complaints: string[] } {
  const out = join(into, 'extracted');
  const run = spawnSync(tools.xorriso, ['-indev', file, '-osirrox', 'on', '-extract', '/', out], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`xorriso exited ${run.status}: ${run.stderr}`);
  const complaints = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /: (WARNING|SORRY|FAILURE|FATAL|MISHAP) :/.test(line));
  return { files: new Map(readdirSync(out).map((name) => [name, readFileSync(join(out, name))])), complaints };
}

/** `genisoimage -iso-level 3 -R -V cidata`: how Proxmox itself builds a seed, from a directory. */
export function genisoimage(sourceDir: string, output: string): void {
  execFileSync(tools.genisoimage, ['-quiet', '-iso-level', '3', '-R', '-V', 'cidata', '-o', output, sourceDir], { stdio: 'ignore' });
}
