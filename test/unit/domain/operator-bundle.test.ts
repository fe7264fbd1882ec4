/**
 * Issue 26: the hand-off bundle. Every file is read back with `yaml` and
 * checked against the operator's schemas (built from the guide's tables),
 * the refusals come in words before any file, and the token and proxy
 * passwords stay out unless asked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { buildHandoffBundle, shellWord, type HandoffProfile, type HandoffProxy, type BundleFile } from '../../../shared/domain/operator-bundle';
import { OperatorProviderEntry, OperatorProxy, isK8sObjectName } from '../../../shared/domain/operator-schemas';
import { CREDENTIAL_PLACEHOLDERS } from '../../../shared/domain/proxy-credentials';

const SAMPLE = join(__dirname, '../../../../shared/seeds/extracted/sample-proxy-proxmox.yaml');

const profile: HandoffProfile = {
  name: 'Home lab',
  url: 'https://192.168.0.8:8006',
  tls: { mode: 'ca', caPem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' },
  token: { secretStorage: 'keyring', tokenId: 'desk@pve!egress' },
  nodes: ['pv1-1', 'pv1-2'],
  isoStorage: 'proxy-seeds',
  vlanTag: 4,
  templates: { 'debian-13': { vmid: 9001, perNode: { 'pv1-2': 9101 } } },
  machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
};

const squid = '#cloud-config\npackages:\n  - squid\nruncmd:\n  - systemctl restart squid\n';
const proxy = (over: Partial<HandoffProxy> = {}): HandoffProxy => ({
  name: 'proxy-a',
  vmid: 100001,
  node: 'pv1-1',
  template: 'debian-13',
  machineType: 'small',
  port: 3128,
  protocol: 'http',
  userData: squid,
  ...over,
});
const opts = { providerName: 'proxmox-home', includeCredentials: false, caPem: profile.tls.mode === 'ca' ? profile.tls.caPem : undefined };

function files(result: ReturnType<typeof buildHandoffBundle>): BundleFile[] {
  if (!result.ok) throw new Error(`refused: ${result.refusals.join(' | ')}`);
  return result.files;
}
const file = (fs: BundleFile[], path: string) => fs.find((f) => f.path === path)!;

describe('hand-off bundle', () => {
  it('writes an entry, a CA, the secret command, one Proxy per proxy, a kustomization and a README, each valid for the operator', () => {
    const fs = files(buildHandoffBundle(profile, [proxy(), proxy({ name: 'proxy-b', vmid: 100002 })], opts));
    expect(fs.map((f) => f.path)).toEqual([
      'providers-config-entry.yaml',
      'proxmox-ca.pem',
      'create-token-secret.sh',
      'proxies/proxy-a.yaml',
      'proxies/proxy-b.yaml',
      'kustomization.yaml',
      'README.md',
    ]);
    const [entry] = parse(file(fs, 'providers-config-entry.yaml').content) as unknown[];
    const e = OperatorProviderEntry.parse(entry);
    expect(e.proxmox).toMatchObject({ url: 'https://192.168.0.8:8006', caFile: '/etc/proxy-operator/proxmox/ca.pem', nodes: ['pv1-1', 'pv1-2'], vlanTag: 4 });
    expect(e.proxmox.templates).toEqual({ 'debian-13': { vmid: 9001 } }); // perNode is the app's, not the operator's
    const p = OperatorProxy.parse(parse(file(fs, 'proxies/proxy-a.yaml').content));
    expect(p.metadata.name).toBe('proxy-a');
    expect(p.spec).toMatchObject({ mode: 'Managed', provider: 'proxmox-home', placement: { zone: 'pv1-1', machineType: 'small', image: 'debian-13' }, port: 3128 });
    expect(p.spec.cloudInit.inline).toBe(squid); // byte for byte: the operator writes it into the seed as it is
    expect(parse(file(fs, 'kustomization.yaml').content)).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: ['proxies/proxy-a.yaml', 'proxies/proxy-b.yaml'],
    });
    expect(file(fs, 'create-token-secret.sh').content).toContain(
      'kubectl -n egress-proxies-operator-system create secret generic proxmox-token --from-file=token=$HOME/.config/proxmox-token --from-file=ca.pem=./proxmox-ca.pem',
    );
    expect(fs.every((f) => !f.secret)).toBe(true);
  });

  it('keeps user-data byte for byte through the YAML, whatever its shape', () => {
    for (const text of ['#cloud-config\n', '#cloud-config\nruncmd:\n  - echo "yes: no"   \n\n\n', '#!/bin/sh\n  indented first\ttab', '#cloud-config\n# ends without newline']) {
      const fs = files(buildHandoffBundle(profile, [proxy({ userData: text })], opts));
      expect(OperatorProxy.parse(parse(file(fs, 'proxies/proxy-a.yaml').content)).spec.cloudInit.inline).toBe(text);
    }
  });

  it('refuses, in words and before any file, what the operator cannot express', () => {
    const r = buildHandoffBundle(
      profile,
      [
        proxy({ name: 'Proxy_A' }),
        proxy({ name: 'proxy-b', node: 'pv1-2' }),
        proxy({ name: 'proxy-c', userData: undefined }),
        proxy({ name: 'proxy-d', network: { bridge: 'vmbr1' } }),
        proxy({ name: 'proxy-e', network: { ipv4: { address: '192.168.4.20/24' } } }),
        proxy({ name: 'proxy-f', network: { vlanTag: 7 } }),
      ],
      opts,
    );
    expect(r.ok).toBe(false);
    const words = r.ok ? [] : r.refusals;
    expect(words).toHaveLength(6);
    expect(words[0]).toMatch(/Proxy_A is not a valid Kubernetes object name/);
    expect(words[1]).toMatch(/proxy-b is on pv1-2, where image "debian-13" clones its own template \(VM 9101\)/);
    expect(words[2]).toMatch(/does not know proxy-c's user-data/);
    expect(words[3]).toMatch(/proxy-d sits on bridge vmbr1/);
    expect(words[4]).toMatch(/proxy-e has a static address/);
    expect(words[5]).toMatch(/proxy-f has VLAN 7, not the cluster's 4/);
  });

  it('a network the same as the profile’s is no refusal', () => {
    expect(buildHandoffBundle({ ...profile, bridge: 'vmbr0' }, [proxy({ network: { bridge: 'vmbr0', vlanTag: 4 } })], opts).ok).toBe(true);
  });

  it('refuses a user-data with credentials unless asked, then fills them and marks the manifest a secret', () => {
    const withCreds = `#cloud-config\nwrite_files:\n  - path: /etc/squid/passwd\n    content: "${CREDENTIAL_PLACEHOLDERS.user}:${CREDENTIAL_PLACEHOLDERS.apr1}"\n`;
    const refused = buildHandoffBundle(profile, [proxy({ userData: withCreds })], opts);
    expect(refused.ok ? '' : refused.refusals.join(' ')).toMatch(/Tick "Include credentials"/);
    const creds = { user: 'u-42', password: 'sentinel-pass-0001', apr1: '$apr1$sentinel', crypt: '$1$sentinel' };
    const noneKept = buildHandoffBundle(profile, [proxy({ userData: withCreds })], { ...opts, includeCredentials: true });
    expect(noneKept.ok ? '' : noneKept.refusals.join(' ')).toMatch(/no longer holds proxy-a's credentials/);
    const fs = files(buildHandoffBundle(profile, [proxy({ userData: withCreds, credentials: creds })], { ...opts, includeCredentials: true }));
    const m = file(fs, 'proxies/proxy-a.yaml');
    expect(m.secret).toBe(true);
    expect(OperatorProxy.parse(parse(m.content)).spec.cloudInit.inline).toContain('u-42:$apr1$sentinel');
    expect(file(fs, 'README.md').content).toMatch(/Secrets inside:.*proxies\/proxy-a\.yaml/);
  });

  it('never holds the token secret unless asked; then as its own secret file', () => {
    const sentinel = 'desk@pve!egress=sentinel-token-5f1c-0000';
    const plain = files(buildHandoffBundle(profile, [proxy()], opts));
    expect(plain.some((f) => f.content.includes('sentinel-token'))).toBe(false);
    const asked = files(buildHandoffBundle(profile, [proxy()], { ...opts, tokenLine: sentinel }));
    expect(asked.filter((f) => f.content.includes('sentinel-token')).map((f) => [f.path, f.secret])).toEqual([['proxmox-token', true]]);
    expect(file(asked, 'create-token-secret.sh').content).toContain('--from-file=token=proxmox-token');
  });

  it('README step 2: the Secret from the bundle’s token file, then delete it; without it, the path the user fills', () => {
    const asked = file(files(buildHandoffBundle(profile, [proxy()], { ...opts, tokenLine: 'desk@pve!egress=s' })), 'README.md').content;
    const step = asked.slice(asked.indexOf('\n2. '), asked.indexOf('\n3. '));
    expect(step).toContain(
      'kubectl -n egress-proxies-operator-system create secret generic proxmox-token --from-file=token=proxmox-token --from-file=ca.pem=./proxmox-ca.pem',
    );
    expect(step).toMatch(/Then delete the token file, `rm proxmox-token`/);
    expect(asked).toMatch(/Secrets inside:\*\* proxmox-token\./);
    const plain = file(files(buildHandoffBundle(profile, [proxy()], opts)), 'README.md').content;
    const plainStep = plain.slice(plain.indexOf('\n2. '), plain.indexOf('\n3. '));
    expect(plainStep).toContain('--from-file=token=$HOME/.config/proxmox-token');
    expect(plainStep).toMatch(/Write the token's one line, `user@realm!tokenid=secret`, to `\$HOME\/\.config\/proxmox-token`/);
    expect(plainStep).not.toContain('rm proxmox-token');
    expect(plain).not.toContain('Secrets inside');
  });

  it('a pinned profile needs the certificate main read, and says what a pin as a CA means', () => {
    const pinned: HandoffProfile = { ...profile, tls: { mode: 'pin', fingerprint: 'AB:CD' } };
    const none = buildHandoffBundle(pinned, [proxy()], { ...opts, caPem: undefined });
    expect(none.ok ? '' : none.refusals.join(' ')).toMatch(/could not get the certificate/);
    const fs = files(buildHandoffBundle(pinned, [proxy()], opts));
    expect(file(fs, 'README.md').content).toMatch(/accepts exactly this certificate/);
    const insecure = files(buildHandoffBundle({ ...profile, tls: { mode: 'insecure' } }, [proxy()], { ...opts, caPem: undefined }));
    expect(OperatorProviderEntry.parse((parse(file(insecure, 'providers-config-entry.yaml').content) as unknown[])[0]).proxmox.insecureSkipTLSVerify).toBe(true);
    expect(insecure.some((f) => f.path === 'proxmox-ca.pem')).toBe(false);
  });

  it('quotes a token file path for the shell', () => {
    const fs = files(buildHandoffBundle({ ...profile, token: { secretStorage: 'file', tokenFile: "/home/me/it's token" } }, [proxy()], opts));
    expect(file(fs, 'create-token-secret.sh').content).toContain(`--from-file='token=/home/me/it'\\''s token'`);
    expect(shellWord('a b')).toBe("'a b'");
  });
});

describe('operator schemas', () => {
  it('accept the seeds’ sample Proxy and the guide’s sample entry', () => {
    const docs = parseAllDocuments(readFileSync(SAMPLE, 'utf8')).map((d) => d.toJS());
    expect(OperatorProxy.safeParse(docs[0]).success).toBe(true);
    const guideEntry = {
      name: 'proxmox-home',
      type: 'proxmox',
      proxmox: {
        url: 'https://192.168.0.8:8006',
        tokenFile: '/etc/proxy-operator/proxmox/token',
        caFile: '/etc/proxy-operator/proxmox/ca.pem',
        nodes: ['pv1-1'],
        isoStorage: 'proxy-seeds',
        vlanTag: 4,
        templates: { 'debian-13': { vmid: 9001 } },
        machineTypes: { small: { cores: 1, memoryMiB: 1024 } },
      },
    };
    expect(OperatorProviderEntry.safeParse(guideEntry).success).toBe(true);
    expect(OperatorProviderEntry.safeParse({ ...guideEntry, proxmox: { ...guideEntry.proxmox, perNode: {} } }).success).toBe(false);
    expect(OperatorProviderEntry.safeParse({ ...guideEntry, proxmox: { ...guideEntry.proxmox, url: 'https://h:8006/api2/json' } }).success).toBe(false);
    expect(OperatorProviderEntry.safeParse({ ...guideEntry, proxmox: { ...guideEntry.proxmox, url: 'http://h:8006' } }).success).toBe(false);
    expect(OperatorProviderEntry.safeParse({ ...guideEntry, proxmox: { ...guideEntry.proxmox, templates: { x: { vmid: 9001, perNode: {} } } } }).success).toBe(false);
  });

  it('reject unknown keys in a Proxy', () => {
    const docs = parseAllDocuments(readFileSync(SAMPLE, 'utf8')).map((d) => d.toJS() as { spec: Record<string, unknown> });
    expect(OperatorProxy.safeParse({ ...docs[0], spec: { ...docs[0]!.spec, network: {} } }).success).toBe(false);
  });

  it('names: RFC 1123 subdomains only', () => {
    expect(['proxy-a', 'a.b-c', '0x'].every(isK8sObjectName)).toBe(true);
    expect(['Proxy', '-a', 'a-', 'a..b', 'a_b', 'x'.repeat(254)].some(isK8sObjectName)).toBe(false);
  });
});
