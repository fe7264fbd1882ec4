/** Issue 14: a built template into the profile's catalogue: a new key, a node's own template under a taken key, unchanged, the demo (for the session, issue 23). */
import { describe, expect, it } from 'vitest';
import type { SaveProfileInput } from '../../../shared/channels/profiles';
import type { ProfileSummary } from '../../../shared/domain/profile';
import { profileCatalogue } from '../../../main/services/templates/profile-catalogue';

function summary(templates: ProfileSummary['templates'], demo = false): ProfileSummary {
  return {
    id: 'c1',
    demo,
    secretAvailable: true,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
    name: 'lab',
    url: 'https://pve:8006',
    tls: { mode: 'system' },
    token: { secretStorage: 'session', tokenId: 'a@pve!b' },
    nodes: ['pv1-1', 'pv1-2'],
    isoStorage: 'proxy-seeds',
    templates,
    machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
  };
}

function fake(s: ProfileSummary) {
  const saved: SaveProfileInput[] = [];
  const demoCatalogues: ProfileSummary['templates'][] = [];
  return {
    saved,
    demoCatalogues,
    service: {
      get: () => s,
      save: (input: SaveProfileInput) => {
        saved.push(input);
        return Promise.resolve(s);
      },
      setDemoTemplates: (templates: ProfileSummary['templates']) => void demoCatalogues.push(templates),
    },
  };
}

describe('profileCatalogue', () => {
  it('adds a new key as {vmid}, keeping the profile otherwise as it was', async () => {
    const f = fake(summary({}));
    expect(await profileCatalogue(f.service).add('c1', 'debian-13-amd64', 'pv1-1', 101)).toEqual({ catalogue: 'added' });
    expect(f.saved).toEqual([{ id: 'c1', profile: expect.objectContaining({ templates: { 'debian-13-amd64': { vmid: 101 } } }) }]);
    expect(f.saved[0]!.profile).not.toHaveProperty('demo');
    expect(f.saved[0]).not.toHaveProperty('secret');
  });

  it("under a key that names another template: this node's template (perNode)", async () => {
    const f = fake(summary({ 'debian-13-amd64': { vmid: 9001 } }));
    const answer = await profileCatalogue(f.service).add('c1', 'debian-13-amd64', 'pv1-2', 9102);
    expect(answer.catalogue).toBe('per-node');
    expect(f.saved[0]!.profile.templates).toEqual({ 'debian-13-amd64': { vmid: 9001, perNode: { 'pv1-2': 9102 } } });
  });

  it('the same template again changes nothing', async () => {
    const f = fake(summary({ 'debian-13-amd64': { vmid: 9001 } }));
    expect(await profileCatalogue(f.service).add('c1', 'debian-13-amd64', 'pv1-1', 9001)).toEqual({ catalogue: 'unchanged' });
    expect(f.saved).toEqual([]);
  });

  it('the demo takes a built template for this session and writes nothing (issue 23)', async () => {
    const d = fake(summary({ 'debian-13-template': { vmid: 9001 } }, true));
    const answer = await profileCatalogue(d.service).add('c1', 'debian-13-amd64', 'pv1-1', 101);
    expect(answer).toEqual({ catalogue: 'added', note: 'the demo keeps it for this session only' });
    expect(d.demoCatalogues).toEqual([{ 'debian-13-template': { vmid: 9001 }, 'debian-13-amd64': { vmid: 101 } }]);
    expect(d.saved).toEqual([]);
  });
});
