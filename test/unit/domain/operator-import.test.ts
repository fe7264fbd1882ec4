/** Issue 26: the operator's manifests read back into the app's create requests; the export round-trips. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHandoffBundle, type HandoffProfile } from '../../../shared/domain/operator-bundle';
import { importOperatorYaml } from '../../../shared/domain/operator-import';

const SAMPLE = join(__dirname, '../../../../shared/seeds/extracted/sample-proxy-proxmox.yaml');

describe('importOperatorYaml', () => {
  it('takes the seeds’ sample Proxy with its name, placement and cloud-init byte for byte', () => {
    const text = readFileSync(SAMPLE, 'utf8');
    const r = importOperatorYaml(text);
    expect(r.problems).toEqual([]);
    expect(r.proxies).toHaveLength(1);
    expect(r.proxies[0]).toMatchObject({ name: 'proxy-proxmox-sample', node: 'pv1-1', template: 'debian-13', machineType: 'small', port: 3128, provider: 'proxmox-home' });
    expect(r.proxies[0]!.cloudInit).toMatch(/^#cloud-config\npackages:\n  - squid\n/);
    expect(r.proxies[0]!.cloudInit).toContain('# ssh_authorized_keys:\n#   - ssh-ed25519 AAAA... you@laptop\n');
  });

  it('export → import round-trips: every Proxy and the provider entry come back as they were made', () => {
    const profile: HandoffProfile = {
      name: 'Lab',
      url: 'https://192.168.0.8:8006',
      tls: { mode: 'insecure' },
      token: { secretStorage: 'keyring', tokenId: 'a@pve!b' },
      nodes: ['pv1-1', 'pv1-2'],
      isoStorage: 'proxy-seeds',
      vlanTag: 4,
      templates: { 'debian-13': { vmid: 9001 } },
      machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
    };
    const made = [
      { name: 'proxy-a', vmid: 100001, node: 'pv1-1', template: 'debian-13', machineType: 'small', port: 3128, userData: '#cloud-config\nruncmd:\n  - echo "on: yes"\n' },
      { name: 'proxy-b', vmid: 100002, node: 'pv1-2', template: 'debian-13', machineType: 'small', port: 1080, userData: '#!/bin/sh\necho hi' },
    ];
    const bundle = buildHandoffBundle(profile, made, { providerName: 'lab', includeCredentials: false });
    if (!bundle.ok) throw new Error(bundle.refusals.join(' '));
    const text = bundle.files.filter((f) => f.path.endsWith('.yaml')).map((f) => f.content).join('---\n');
    const r = importOperatorYaml(text);
    expect(r.problems).toEqual([]);
    expect(r.proxies.map((p) => [p.name, p.node, p.template, p.machineType, p.port, p.cloudInit])).toEqual(
      made.map((m) => [m.name, m.node, m.template, m.machineType, m.port, m.userData]),
    );
    expect(r.providers).toHaveLength(1);
    expect(r.offers[0]!.draft).toMatchObject({ name: 'lab', url: profile.url, nodes: profile.nodes, vlanTag: 4, templates: profile.templates });
    // The operator's insecureSkipTLSVerify is not the app's trust: the wizard's trust step decides.
    expect(r.offers[0]!.draft).not.toHaveProperty('tls');
  });

  it('says in words what it cannot take, per object', () => {
    const r = importOperatorYaml(
      'apiVersion: crawl.example.com/v1alpha1\nkind: Proxy\nmetadata: {name: a.b}\nspec: {mode: Managed, provider: p, placement: {machineType: s, image: i}, port: 1, cloudInit: {inline: x}}\n---\nkind: Proxy\nmetadata: {name: bad}\nspec: {mode: Unmanaged}\n---\nkind: ConfigMap\n',
    );
    expect(r.proxies).toEqual([]);
    expect(r.problems[0]).toMatch(/Proxy a\.b: the app names a VM with a DNS label/);
    expect(r.problems[1]).toMatch(/^Proxy bad: /);
    expect(r.problems[2]).toMatch(/neither a Proxy nor/);
  });
});
