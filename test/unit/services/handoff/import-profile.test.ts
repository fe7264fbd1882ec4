/**
 * Issue 26: handoff.import's offers of a cluster profile, through main's import (the contract's output schema
 * checked): a URL a saved cluster already has names that cluster, and a token file the entry points at is
 * never read (sentinel: its secret appears nowhere in the answer).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { HandoffImportResult } from '../../../../shared/channels/handoff';
import type { ProfileSummary } from '../../../../shared/domain/profile';
import { importManifests, type ImportDeps } from '../../../../main/services/handoff/import';

const SENTINEL = 'sentinel-token-secret-4f1c9a77-0000-4b5e-9d2a-aa11bb22cc33';

const saved = {
  id: 'home-1',
  name: 'Home',
  url: 'https://pve.lab:8006',
  tls: { mode: 'system' },
  token: { secretStorage: 'keyring', tokenId: 'a@pve!b' },
  nodes: ['pv1-1'],
  isoStorage: 'local',
  templates: {},
  machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
  demo: false,
  secretAvailable: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
} as ProfileSummary;

const deps: ImportDeps = {
  profile: () => saved,
  profiles: async () => [saved],
  createProxies: async () => {
    throw new Error('nothing is created from a providers-config entry');
  },
};

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function entryYaml(url: string, tokenFile: string, caFile?: string): string {
  return stringify([
    {
      name: 'proxmox-home',
      type: 'proxmox',
      proxmox: {
        url,
        tokenFile,
        ...(caFile ? { caFile } : {}),
        nodes: ['pv1-1', 'pv1-2'],
        isoStorage: 'proxy-seeds',
        templates: { 'debian-13': { vmid: 9001 } },
        machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
      },
    },
  ]);
}

describe('handoff.import: a providers-config entry offered as a cluster profile', () => {
  it('offers a new cluster for a URL no saved cluster has, with its draft and what the wizard asks instead', async () => {
    const r = HandoffImportResult.parse(
      await importManifests({ clusterId: 'home-1', yaml: entryYaml('https://192.168.0.8:8006', '/t'), create: false }, deps),
    );
    expect(r.problems).toEqual([]);
    expect(r.offers).toHaveLength(1);
    expect(r.offers[0]!.existing).toBeUndefined();
    expect(r.offers[0]!.draft).toMatchObject({ name: 'proxmox-home', url: 'https://192.168.0.8:8006', nodes: ['pv1-1', 'pv1-2'] });
  });

  it('names the saved cluster that already talks to the same URL, so it is offered instead of a duplicate', async () => {
    const r = HandoffImportResult.parse(
      await importManifests({ clusterId: 'home-1', yaml: entryYaml('https://PVE.lab:8006/', '/t'), create: true }, deps),
    );
    expect(r.offers[0]!.existing).toEqual({ id: 'home-1', name: 'Home' });
    expect(r.taskIds).toEqual([]);
  });

  it('never reads the token file (or the CA file) the entry names: their contents appear nowhere', async () => {
    dir = mkdtempSync(join(tmpdir(), 'import-profile-'));
    const tokenFile = join(dir, 'token');
    const caFile = join(dir, 'ca.pem');
    writeFileSync(tokenFile, `egress@pve!desk=${SENTINEL}\n`, { mode: 0o600 });
    writeFileSync(caFile, `-----BEGIN CERTIFICATE-----\n${SENTINEL}\n-----END CERTIFICATE-----\n`);
    const r = await importManifests(
      { clusterId: 'home-1', yaml: entryYaml('https://192.168.0.8:8006', tokenFile, caFile), create: false },
      deps,
    );
    expect(JSON.stringify(r)).not.toContain(SENTINEL);
    expect(r.offers[0]!.notes.join(' ')).toContain(`tokenFile ${tokenFile} is a path inside the operator’s pod and is not read`);
  });
});
