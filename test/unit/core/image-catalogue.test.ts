/** Issue 14: every catalogue entry is well formed, and the paste and file-name helpers hold. */
import { describe, expect, it } from 'vitest';
import {
  CHECKSUM_ALGORITHMS,
  checksumFromPaste,
  CUSTOM_IMAGE,
  IMAGE_CATALOGUE,
  IMAGE_CHOICES,
  IMPORT_FILE_NAME,
  importFileNameFor,
} from '../../../shared/domain/image-catalogue';

describe('the image catalogue', () => {
  it('has Debian 12 and 13 genericcloud and Ubuntu 24.04, each for amd64 and arm64, plus a custom URL', () => {
    expect(IMAGE_CATALOGUE.map((i) => i.id).sort()).toEqual(
      ['debian-12-amd64', 'debian-12-arm64', 'debian-13-amd64', 'debian-13-arm64', 'ubuntu-24.04-amd64', 'ubuntu-24.04-arm64'].sort(),
    );
    expect(IMAGE_CHOICES.at(-1)).toBe(CUSTOM_IMAGE);
    expect(CUSTOM_IMAGE.checksumOptional).toBe(true);
  });

  it('every entry: https URL from the publisher, Proxmox checksum algorithm, list URL beside the image, arch, import file name, unique id', () => {
    const ids = new Set<string>();
    for (const i of IMAGE_CATALOGUE) {
      expect(ids.has(i.id), i.id).toBe(false);
      ids.add(i.id);
      const url = new URL(i.url);
      expect(url.protocol, i.id).toBe('https:');
      expect(['cloud.debian.org', 'cloud-images.ubuntu.com'], i.id).toContain(url.hostname);
      expect(CHECKSUM_ALGORITHMS, i.id).toContain(i.checksum.algorithm);
      expect(new URL(i.checksum.listUrl).protocol).toBe('https:');
      expect(i.checksum.listUrl.slice(0, i.checksum.listUrl.lastIndexOf('/')), i.id).toBe(i.url.slice(0, i.url.lastIndexOf('/')));
      expect(i.checksum.listUrl).toMatch(i.distro === 'debian' ? /\/SHA512SUMS$/ : /\/SHA256SUMS$/);
      expect(i.checksum.algorithm).toBe(i.distro === 'debian' ? 'sha512' : 'sha256');
      expect(['amd64', 'arm64']).toContain(i.arch);
      expect(i.url, i.id).toContain(i.arch);
      expect(i.url, i.id).toMatch(/\.(?:qcow2|img)$/);
      expect(i.fileName, i.id).toMatch(IMPORT_FILE_NAME);
      expect(i.fileName.endsWith('.qcow2'), i.id).toBe(true);
      expect(i.approxBytes).toBeGreaterThan(100 * 1024 * 1024);
    }
  });

  it('reads a pasted checksum line or value, and refuses the wrong length', () => {
    const hex = 'a'.repeat(128);
    expect(checksumFromPaste(`${hex}  debian-13-genericcloud-amd64.qcow2`, 'sha512')).toBe(hex);
    expect(checksumFromPaste(` ${'B'.repeat(64)} *noble-server-cloudimg-amd64.img\n`, 'sha256')).toBe('b'.repeat(64));
    expect(checksumFromPaste('a'.repeat(64), 'sha512')).toBeUndefined();
  });

  it('names a custom URL file as Proxmox import content accepts it', () => {
    expect(importFileNameFor('https://x.test/a/noble-server-cloudimg-amd64.img')).toBe('noble-server-cloudimg-amd64.qcow2');
    expect(importFileNameFor('https://x.test/disk.raw?sig=1')).toBe('disk.raw');
    expect(importFileNameFor('https://x.test/my image.qcow2')).toBe('my_image.qcow2');
  });
});
