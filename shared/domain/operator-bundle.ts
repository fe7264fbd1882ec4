/**
 * Long because: issue 26's hand-off bundle is one decision (what the
 * operator can express, and the files that say it) whose refusals, files and
 * README words must agree; splitting them would let one drift from another.
 *
 * Pure: from a cluster profile and the selected proxies (with the user-data
 * the app kept for each, opened in main), either the refusals in words, before
 * anything is written, or the files of a bundle the operator accepts, each
 * already checked against operator-schemas.ts. YAML only through `yaml`.
 *
 * cloudInit.inline holds the user-data the operator writes into the seed
 * byte for byte (guide, "What lands on Proxmox"). A user-data with the
 * ${EGRESS_DESK_PROXY_*} placeholders (proxy-credentials.ts) must carry the
 * proxy's own credentials filled in, or an adoption that rebuilds the seed
 * would give the proxy a literal `${EGRESS_DESK_PROXY_PASSWORD}`. The
 * operator reads cloud-init only from the Proxy (the guide names no Secret
 * source), so a Secret would be one the operator never reads: such a proxy
 * is refused unless the user asks to include credentials, and then the
 * manifests themselves are secrets (0600, and the README says so).
 */
import { Document, type Tags } from 'yaml';
import { literalBlock } from './cloud-yaml';
import { fillCredentials, wantsCredentials, type CredentialPlaceholder } from './proxy-credentials';
import type { ProxyNetwork } from './proxy-network';
import type { ProfileFields } from './profile';
import {
  isK8sObjectName,
  OperatorProviderEntry,
  OperatorProxy,
  PROXY_API_VERSION,
  schemaProblems,
  type OperatorProxmoxConfig,
} from './operator-schemas';

/** Where the operator's deployment mounts the proxmox-token Secret (guide, "Cluster-side setup" step 1). */
export const OPERATOR_TOKEN_PATH = '/etc/proxy-operator/proxmox/token';
export const OPERATOR_CA_PATH = '/etc/proxy-operator/proxmox/ca.pem';
export const OPERATOR_NAMESPACE = 'egress-proxies-operator-system';

export type HandoffProfile = Pick<
  ProfileFields,
  | 'name'
  | 'url'
  | 'tls'
  | 'token'
  | 'nodes'
  | 'isoStorage'
  | 'storage'
  | 'bridge'
  | 'vlanTag'
  | 'vmidRange'
  | 'templates'
  | 'machineTypes'
  | 'requestTimeoutSeconds'
  | 'vendorData'
  | 'installGuestAgent'
>;

export interface HandoffProxy {
  name: string;
  vmid: number;
  node: string;
  /** The catalogue keys the app made it with (proxy-records.ts); undefined: not known. */
  template?: string | undefined;
  machineType?: string | undefined;
  /** The port its user-data listens on; undefined: the app does not know it. */
  port?: number | undefined;
  protocol?: 'http' | 'socks5' | undefined;
  /** The kept user-data, placeholders not filled; undefined: the app does not know it. */
  userData?: string | undefined;
  network?: ProxyNetwork | undefined;
  /** The proxy's credentials, when the user asked to include them and main still holds them. */
  credentials?: Record<CredentialPlaceholder, string> | undefined;
}

export interface HandoffOptions {
  /** The providers-config entry's name, which every Proxy's spec.provider names. */
  providerName: string;
  /** The user asked for the proxies' credentials inside cloudInit.inline. */
  includeCredentials: boolean;
  /** The token line (`user@realm!id=secret`), only when the user asked for it in the bundle. */
  tokenLine?: string | undefined;
  /** The PEM the operator should trust: the profile's CA, or the pinned certificate main read and matched. */
  caPem?: string | undefined;
}

export interface BundleFile {
  /** A relative path with `/` separators. */
  path: string;
  content: string;
  /** Holds a secret (the token, or proxies' credentials): the README says to keep it out of git. */
  secret: boolean;
}

export type BundleResult = { ok: true; files: BundleFile[] } | { ok: false; refusals: string[] };

/** The same writer settings as cloud-yaml.ts: strings double-quoted, so a YAML 1.1 reader (Go's yaml.v2 under kubectl) sees no `yes`/`on` booleans. */
const YAML_OPTIONS = {
  version: '1.1',
  customTags: (tags: Tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:merge'),
  defaultStringType: 'QUOTE_DOUBLE',
  defaultKeyType: 'PLAIN',
  lineWidth: 0,
} as const;

function yamlText(value: unknown, comment?: string): string {
  const doc = new Document(value, YAML_OPTIONS);
  if (comment) doc.commentBefore = comment;
  return doc.toString(YAML_OPTIONS);
}

/** A word for the shell, single-quoted (a `'` inside closes, escapes and reopens). */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.split("'").join(`'\\''`)}'`;
}

/** Why the operator cannot take this proxy's network: it has only the provider-wide bridge and VLAN tag, and writes no network-config. */
function networkRefusal(p: HandoffProxy, profile: HandoffProfile): string | undefined {
  const n = p.network;
  if (!n) return undefined;
  if (n.ipv4 || n.ipv6 || (n.dns && n.dns.length > 0))
    return `${p.name} has a static address, which the operator cannot give it: its seeds carry no network-config, so the VM would take DHCP. Give it DHCP first (Reconfigure), or keep it on the desktop.`;
  if (n.bridge !== undefined && n.bridge !== profile.bridge)
    return `${p.name} sits on bridge ${n.bridge}, not the cluster's ${profile.bridge ?? '(the template’s)'}: the operator has one bridge per provider. Move it to the cluster's bridge first, or keep it on the desktop.`;
  const tag = n.vlanTag === null ? undefined : n.vlanTag;
  if (n.vlanTag !== undefined && tag !== profile.vlanTag)
    return `${p.name} has VLAN ${tag ?? 'none'}, not the cluster's ${profile.vlanTag ?? 'none'}: the operator has one VLAN tag per provider. Move it to the cluster's VLAN first, or keep it on the desktop.`;
  return undefined;
}

function proxyRefusals(p: HandoffProxy, profile: HandoffProfile, nodes: readonly string[], options: HandoffOptions): string[] {
  const out: string[] = [];
  if (!isK8sObjectName(p.name))
    out.push(
      `${p.name} is not a valid Kubernetes object name (lowercase letters, digits, "-" and ".", starting and ending with a letter or digit), and the operator's Proxy must carry the VM's name. Rename it in Proxmox first, or keep it on the desktop.`,
    );
  if (p.userData === undefined)
    out.push(`Egress Desk does not know ${p.name}'s user-data (it did not write its seed, or wrote it before it kept user-data), and the operator's Proxy must carry it. Reconfigure it once with its user-data, then hand it over.`);
  else if (wantsCredentials(p.userData)) {
    if (!options.includeCredentials)
      out.push(
        `${p.name}'s user-data sets a username and password, and the operator writes cloudInit.inline into the seed as it is, so the manifest would have to hold them. Tick "Include credentials" (the manifests then are secrets), or hand over proxies without credentials.`,
      );
    else if (!p.credentials)
      out.push(`Egress Desk no longer holds ${p.name}'s credentials, so its manifest cannot carry them. Recreate it with new credentials first, or keep it on the desktop.`);
  }
  if (p.template === undefined || p.machineType === undefined)
    out.push(`Egress Desk has no record of the template and machine type ${p.name} was made with, and the operator's Proxy must name them. Keep it on the desktop.`);
  else {
    const t = profile.templates[p.template];
    if (!t) out.push(`${p.name} was made from template "${p.template}", which the cluster's catalogue no longer has. Add it back in the cluster's settings first.`);
    else {
      const perNode = t.perNode?.[p.node];
      if (perNode !== undefined && perNode !== t.vmid)
        out.push(
          `${p.name} is on ${p.node}, where image "${p.template}" clones its own template (VM ${perNode}); the operator's catalogue has one template per image for every node (templates.${p.template}.vmid = ${t.vmid}). Give the image one template for all nodes, or keep it on the desktop.`,
        );
    }
    if (!profile.machineTypes[p.machineType]) out.push(`${p.name}'s machine type "${p.machineType}" is no longer in the cluster's catalogue. Add it back in the cluster's settings first.`);
  }
  if (!nodes.includes(p.node)) out.push(`${p.name} is on node ${p.node}, which the cluster's profile does not list; add the node to the profile first.`);
  if (p.port === undefined)
    out.push(`Egress Desk does not know which port ${p.name} listens on (its user-data names no daemon the app knows), and the operator's Proxy needs spec.port.`);
  const net = networkRefusal(p, profile);
  if (net) out.push(net);
  return out;
}

/** The operator's providers-config entry for this profile. */
export function providerEntry(profile: HandoffProfile, providerName: string, nodes: readonly string[], withCa: boolean): OperatorProviderEntry {
  const templates = Object.fromEntries(Object.entries(profile.templates).map(([k, t]) => [k, { vmid: t.vmid }]));
  const proxmox: OperatorProxmoxConfig = {
    url: profile.url.replace(/\/+$/, ''),
    tokenFile: OPERATOR_TOKEN_PATH,
    ...(withCa ? { caFile: OPERATOR_CA_PATH } : {}),
    ...(profile.tls.mode === 'insecure' ? { insecureSkipTLSVerify: true } : {}),
    nodes: [...nodes],
    isoStorage: profile.isoStorage,
    ...(profile.storage !== undefined ? { storage: profile.storage } : {}),
    ...(profile.bridge !== undefined ? { bridge: profile.bridge } : {}),
    ...(profile.vlanTag !== undefined ? { vlanTag: profile.vlanTag } : {}),
    ...(profile.vmidRange !== undefined ? { vmidRange: profile.vmidRange } : {}),
    templates,
    machineTypes: profile.machineTypes,
    ...(profile.requestTimeoutSeconds !== undefined ? { requestTimeoutSeconds: profile.requestTimeoutSeconds } : {}),
    ...(profile.vendorData !== undefined ? { vendorData: profile.vendorData } : {}),
    ...(profile.installGuestAgent !== undefined ? { installGuestAgent: profile.installGuestAgent } : {}),
  };
  return { name: providerName, type: 'proxmox', proxmox };
}

/** One Proxy manifest's object (not yet YAML). */
export function proxyManifest(p: HandoffProxy, providerName: string): OperatorProxy {
  const userData = p.userData ?? '';
  const inline = p.credentials && wantsCredentials(userData) ? fillCredentials(userData, p.credentials) : userData;
  return {
    apiVersion: PROXY_API_VERSION,
    kind: 'Proxy',
    metadata: { name: p.name },
    spec: {
      mode: 'Managed',
      provider: providerName,
      placement: { zone: p.node, machineType: p.machineType ?? '', image: p.template ?? '' },
      port: p.port ?? 0,
      cloudInit: { inline },
      attributes: { 'handed-from': 'egress-desk', ...(p.protocol ? { protocol: p.protocol } : {}) },
    },
  };
}

function proxyYaml(m: OperatorProxy, vmid: number): string {
  const value = { ...m, spec: { ...m.spec, cloudInit: { inline: literalBlock(m.spec.cloudInit.inline) } } };
  return yamlText(value, ` Handed over from Egress Desk: VM ${vmid}. Its mark's uid is empty once released, so the operator adopts it (no clone).`);
}

/** The `kubectl create secret generic proxmox-token …` line; run from the bundle's folder. */
function secretCommand(profile: HandoffProfile, hasToken: boolean, withCa: boolean): string {
  const tokenPath = hasToken ? 'proxmox-token' : profile.token.secretStorage === 'file' ? profile.token.tokenFile : '$HOME/.config/proxmox-token';
  // $HOME stays for the shell to expand; every other path is one quoted word.
  const tokenArg = tokenPath.startsWith('$HOME/') ? `token=$HOME/${shellWord(tokenPath.slice(6))}` : shellWord(`token=${tokenPath}`);
  const parts = ['kubectl', '-n', OPERATOR_NAMESPACE, 'create', 'secret', 'generic', 'proxmox-token', `--from-file=${tokenArg}`];
  if (withCa) parts.push('--from-file=ca.pem=./proxmox-ca.pem');
  return parts.join(' ');
}

function tokenCommand(profile: HandoffProfile, hasToken: boolean, withCa: boolean): string {
  const after = hasToken ? '# Then delete proxmox-token (README.md, step 2): the Secret holds the token now.\n' : '';
  return `#!/bin/sh\n# Creates the Secret the operator reads its token${withCa ? ' and CA' : ''} from (README.md, step 2).\nset -e\ncd "$(dirname "$0")"\n${secretCommand(profile, hasToken, withCa)}\n${after}`;
}

/** README step 2: the Secret, from the bundle's token file (then deleted) or from the one the user writes. */
function secretStep(profile: HandoffProfile, hasToken: boolean, withCa: boolean): string {
  const command = `\n\n   \`\`\`sh\n   ${secretCommand(profile, hasToken, withCa)}\n   \`\`\`\n\n`;
  if (hasToken)
    return `2. Create the Secret from \`proxmox-token\` in this folder: \`sh create-token-secret.sh\`, which runs${command}   Then delete the token file, \`rm proxmox-token\`: the Secret holds the token now, and a copy left here is one more place the API token (which can clone, change and delete VMs) can leak from.`;
  if (profile.token.secretStorage === 'file')
    return `2. Create the Secret from the cluster's token file: \`sh create-token-secret.sh\`, which runs${command}   Run it where that file is (this computer), or change the path to where the token's one line is.`;
  return `2. Write the token's one line, \`user@realm!tokenid=secret\`, to \`$HOME/.config/proxmox-token\` (mode 0600), then create the Secret: \`sh create-token-secret.sh\`, which runs${command}   Change the path in it if you keep the line elsewhere.`;
}

function tlsWords(profile: HandoffProfile): string {
  switch (profile.tls.mode) {
    case 'ca':
      return 'proxmox-ca.pem is the CA this cluster profile trusts; the operator trusts the same one (`caFile`).';
    case 'pin':
      return [
        'This cluster profile pins the node certificate by its fingerprint (' + profile.tls.fingerprint + ').',
        'The operator takes a CA, not a pin, so proxmox-ca.pem is that very certificate, read from the node and matched against the pin before it was written.',
        'Trusted as a CA, it means: the operator accepts exactly this certificate (still checked against the URL\'s host), and nothing else.',
        'When the node renews or replaces its certificate, the operator fails with CertificateInvalid, where the app would ask you to confirm the new fingerprint.',
        'For a trust that outlives renewals, put the node\'s /etc/pve/pve-root-ca.pem in the Secret instead.',
      ].join(' ');
    case 'insecure':
      return 'This cluster profile skips certificate verification, so the entry sets `insecureSkipTLSVerify: true` (the operator logs a WARNING: line). Create the Secret with the `token` key only.';
    default:
      return 'This cluster profile trusts the system roots, so the entry sets no `caFile`: the operator trusts its own system roots.';
  }
}

function readme(profile: HandoffProfile, providerName: string, proxies: readonly HandoffProxy[], files: readonly BundleFile[], hasToken: boolean, withCa: boolean): string {
  const secretFiles = files.filter((f) => f.secret).map((f) => f.path);
  const names = proxies.map((p) => `- ${p.name} (VM ${p.vmid} on ${p.node})`).join('\n');
  return `# Handing ${proxies.length === 1 ? 'a proxy' : `${proxies.length} proxies`} of ${profile.name} to the Kubernetes operator

Made by Egress Desk. Every file here is readable by you only (0600).

${names}

## What is here

- \`providers-config-entry.yaml\`: the \`${providerName}\` entry for the operator's providers config (\`config/manager/providers_config.yaml\`). Add it to the list there; the config is read once per process, so restart the manager afterwards.
${withCa ? '- `proxmox-ca.pem`: the certificate the operator trusts for the API. ' + tlsWords(profile) + '\n' : '- No CA file. ' + tlsWords(profile) + '\n'}- \`create-token-secret.sh\`: the \`kubectl create secret generic proxmox-token …\` command. ${
    hasToken
      ? '`proxmox-token` holds the API token secret itself, because you asked for it: delete it once the Secret exists.'
      : profile.token.secretStorage === 'file'
        ? 'It reads the token from the cluster\'s token file.'
        : 'The token secret is not in this bundle: write the one line `user@realm!tokenid=secret` to `$HOME/.config/proxmox-token` (mode 0600) before running it.'
  }
- \`proxies/*.yaml\`: one \`Proxy\` per proxy, named like its VM, with the user-data Egress Desk last wrote to its seed.
- \`kustomization.yaml\`: lists the Proxies, for \`kubectl apply -k\`.
${secretFiles.length > 0 ? `\n**Secrets inside:** ${secretFiles.join(', ')}. Keep them out of git (or encrypt them, e.g. with SOPS or Sealed Secrets).${secretFiles.some((f) => f.startsWith('proxies/')) ? ' The Proxies carry their proxies\' usernames and passwords in `cloudInit.inline`, because the operator writes that text into the seed as it is and reads it from nowhere else: anyone who can read Proxy objects can read them.' : ''}\n` : ''}
## Steps

1. In Egress Desk, **release** these proxies (Hand to Kubernetes…, Release): their marks get an empty \`uid\`, which is what lets the operator adopt them. Until the operator adopts one, Undo writes the app's UID back.
${secretStep(profile, hasToken, withCa)}
3. Add \`providers-config-entry.yaml\` to the providers config and restart the manager.
4. Apply the Proxies: \`kubectl apply -k .\`

## Verify

\`kubectl get px -w\` shows each Proxy reach Running, then Ready, with the address it has now. At its first reconcile the operator's Create finds the VM by name, checks the mark (\`proxy-operator-managed=true\` with an empty uid: adopted), and clones nothing: the VMID stays the one above. A running VM is taken as it is; a stopped one gets its seed rebuilt from \`cloudInit.inline\`, its config rewritten (cores, memory, agent, the \`proxy_operator\` tag, ide2) and is started. In Proxmox, \`qm config <vmid>\` still shows the same VM.

A Proxy that ends Failed with a message naming the VMID and two UIDs was not released (its mark still holds the app's UID): release it in Egress Desk, then touch the Proxy's spec.
`;
}

/** The bundle, or every reason it cannot be made, in words. */
export function buildHandoffBundle(profile: HandoffProfile, proxies: readonly HandoffProxy[], options: HandoffOptions): BundleResult {
  const refusals: string[] = [];
  if (proxies.length === 0) refusals.push('Choose at least one proxy to hand over.');
  const nodes = profile.nodes.length > 0 ? profile.nodes : [...new Set(proxies.map((p) => p.node))].sort();
  const seen = new Set<string>();
  for (const p of proxies) {
    if (seen.has(p.name)) refusals.push(`Two selected proxies are named ${p.name}; a Kubernetes name is unique. Rename one in Proxmox first.`);
    seen.add(p.name);
    refusals.push(...proxyRefusals(p, profile, nodes, options));
  }
  const withCa = profile.tls.mode === 'ca' || profile.tls.mode === 'pin';
  if (withCa && !options.caPem?.includes('-----BEGIN CERTIFICATE-----'))
    refusals.push(`Egress Desk could not get the certificate ${profile.name} trusts, and the operator needs it as its CA. Check that the cluster answers, then try again.`);
  const entry = providerEntry(profile, options.providerName, nodes, withCa);
  const entryCheck = OperatorProviderEntry.safeParse(entry);
  if (!entryCheck.success) refusals.push(...schemaProblems(entryCheck.error).map((w) => `The operator would refuse this cluster's providers-config entry: ${w}.`));
  if (refusals.length > 0) return { ok: false, refusals };

  const files: BundleFile[] = [];
  files.push({ path: 'providers-config-entry.yaml', content: yamlText([entry], ` Add this entry to the operator's providers config (README.md, step 3).`), secret: false });
  if (withCa) files.push({ path: 'proxmox-ca.pem', content: options.caPem!.endsWith('\n') ? options.caPem! : `${options.caPem}\n`, secret: false });
  const hasToken = options.tokenLine !== undefined;
  if (hasToken) files.push({ path: 'proxmox-token', content: `${options.tokenLine}\n`, secret: true });
  files.push({ path: 'create-token-secret.sh', content: tokenCommand(profile, hasToken, withCa), secret: false });
  const resources: string[] = [];
  for (const p of proxies) {
    const m = proxyManifest(p, options.providerName);
    const check = OperatorProxy.safeParse(m);
    if (!check.success) return { ok: false, refusals: schemaProblems(check.error).map((w) => `The operator would refuse ${p.name}'s Proxy: ${w}.`) };
    const path = `proxies/${p.name}.yaml`;
    resources.push(path);
    files.push({ path, content: proxyYaml(m, p.vmid), secret: p.credentials !== undefined && wantsCredentials(p.userData ?? '') });
  }
  files.push({ path: 'kustomization.yaml', content: yamlText({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources }), secret: false });
  files.push({ path: 'README.md', content: readme(profile, options.providerName, proxies, files, hasToken, withCa), secret: false });
  return { ok: true, files };
}
