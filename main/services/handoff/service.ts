/**
 * Issue 26: the hand-off bundle for a cluster's selected proxies, built by
 * the pure builder (shared/domain/operator-bundle.ts) from the profile, the
 * inventory's rows and what the app kept of each proxy's seed (the task
 * manager's keptSeed: template, machine type, user-data opened, endpoint,
 * network). Credentials are filled in only when asked and the export warning
 * was confirmed once (AppSettings.exportCredentialsAcknowledged), and only
 * from credentials the app already holds. A pinned profile's certificate is
 * read from the server and matched against the pin. The API token's line
 * goes into the bundle only when the input asks (includeToken, which the
 * dialog sends only after its own warning, asked at every tick), only as the
 * one secret file `proxmox-token`, and only the token of the input's own
 * cluster; the preview lists that file, never its text. Refusals come back in
 * words; nothing is written until there are none. Nothing here logs a text.
 */
import type { HandoffInput, HandoffPreview } from '../../../shared/channels/handoff';
import type { InventorySnapshot } from '../../../shared/channels/inventory';
import { buildHandoffBundle, type BundleFile, type HandoffProxy } from '../../../shared/domain/operator-bundle';
import type { AppSettings, ProfileSummary } from '../../../shared/domain/profile';
import type { ProxyNetwork } from '../../../shared/domain/proxy-network';
import { CREDENTIAL_PLACEHOLDERS, type CredentialPlaceholder } from '../../../shared/domain/proxy-credentials';
import { AppError } from '../../errors/app-error';
import type { FolderSaver } from '../../ports/folder-saver';
import type { PinnedPemReader } from './pinned-certificate';

export interface KeptSeed {
  template: string;
  machineType: string;
  userData?: string | undefined;
  endpoint?: { protocol: 'http' | 'socks5'; port: number } | undefined;
  network?: ProxyNetwork | undefined;
}

export interface HandoffServiceOptions {
  profile(clusterId: string): ProfileSummary;
  /** Every saved cluster: an imported providers-config entry whose URL one of them has is offered as that one. */
  profiles?(): Promise<readonly ProfileSummary[]>;
  inventory: { snapshot(): InventorySnapshot };
  keptSeed(clusterId: string, uid: string): Promise<KeptSeed | undefined>;
  credentials: {
    has(clusterId: string, vmid: number): boolean;
    /** The user-data with the proxy's own credentials filled in (proxy-credentials/store.ts). */
    fill(clusterId: string, uid: string, name: string, userData: string): Promise<string>;
  };
  settings(): AppSettings;
  /** The cluster's API token as its one line `user@realm!tokenid=secret` (ProfileService.tokenLine); asked only for includeToken. */
  tokenLine(clusterId: string): Promise<string>;
  saver: FolderSaver;
  readPinnedPem: PinnedPemReader;
}

export interface HandoffService {
  /** The cluster's profile (the import checks Proxies against its catalogue). */
  profile(clusterId: string): ProfileSummary;
  profiles(): Promise<readonly ProfileSummary[]>;
  preview(input: HandoffInput): Promise<HandoffPreview>;
  save(input: HandoffInput): Promise<{ saved: boolean; path?: string }>;
}

/**
 * The builder fills placeholders from values; main's store fills the text itself. So the values are recovered by
 * filling a probe text made of the four placeholders, which keeps the store the one place that fills.
 */
const PROBE_KEYS: CredentialPlaceholder[] = ['user', 'password', 'apr1', 'crypt'];
const probeText = PROBE_KEYS.map((k) => CREDENTIAL_PLACEHOLDERS[k]).join('\n');

export function createHandoffService(options: HandoffServiceOptions): HandoffService {
  const build = async (input: HandoffInput): Promise<{ refusals: string[]; files: BundleFile[] }> => {
    if (input.includeCredentials && !options.settings().exportCredentialsAcknowledged)
      throw new AppError(
        'invalid-input',
        'Credentials were asked for, but the warning about them has not been confirmed.',
        'Tick “include credentials” again and confirm the warning: the manifests will hold each proxy’s password.',
        'includeCredentials',
      );
    const profile = options.profile(input.clusterId);
    const cluster = options.inventory.snapshot().clusters.find((c) => c.clusterId === input.clusterId);
    const refusals: string[] = [];
    const proxies: HandoffProxy[] = [];
    for (const vmid of [...new Set(input.vmids)]) {
      const vm = cluster?.vms.find((v) => v.vmid === vmid);
      if (!vm || !vm.name) {
        refusals.push(`VM ${vmid} is no longer listed in ${profile.name}.`);
        continue;
      }
      if (vm.owner !== 'marked' || !vm.uid) {
        refusals.push(`${vm.name} (VM ${vmid}) carries no mark with a UID, so it is not a proxy Egress Desk can hand over.`);
        continue;
      }
      const kept = await options.keptSeed(input.clusterId, vm.uid);
      let credentials: HandoffProxy['credentials'];
      if (input.includeCredentials && kept?.userData !== undefined && options.credentials.has(input.clusterId, vmid)) {
        const values = (await options.credentials.fill(input.clusterId, vm.uid, vm.name, probeText)).split('\n');
        credentials = Object.fromEntries(PROBE_KEYS.map((k, i) => [k, values[i] ?? ''])) as Record<CredentialPlaceholder, string>;
      }
      proxies.push({
        name: vm.name,
        vmid,
        node: vm.node,
        template: kept?.template,
        machineType: kept?.machineType,
        port: kept?.endpoint?.port,
        protocol: kept?.endpoint?.protocol,
        userData: kept?.userData,
        network: kept?.network,
        credentials,
      });
    }
    let caPem: string | undefined;
    if (profile.tls.mode === 'ca') caPem = profile.tls.caPem;
    if (profile.tls.mode === 'pin' && refusals.length === 0) caPem = await options.readPinnedPem(profile.url, profile.tls.fingerprint, profile.tls.serverName);
    const bundleOptions = { providerName: input.providerName, includeCredentials: input.includeCredentials, caPem };
    let result = buildHandoffBundle(profile, proxies, bundleOptions);
    if (!result.ok) return { refusals: [...refusals, ...result.refusals], files: [] };
    if (refusals.length > 0) return { refusals, files: [] };
    // The secret is read only for a bundle that can be made, only when asked, and only the input's own cluster's.
    if (input.includeToken === true) result = buildHandoffBundle(profile, proxies, { ...bundleOptions, tokenLine: await options.tokenLine(input.clusterId) });
    if (!result.ok) return { refusals: result.refusals, files: [] };
    return { refusals, files: result.files };
  };

  return {
    profile: (id) => options.profile(id),
    profiles: async () => (options.profiles ? options.profiles() : []),
    async preview(input) {
      const { refusals, files } = await build(input);
      const readme = files.find((f) => f.path === 'README.md')?.content;
      return {
        refusals,
        files: files.map((f) => ({ path: f.path, secret: f.secret, bytes: Buffer.byteLength(f.content) })),
        ...(readme !== undefined ? { readme } : {}),
      };
    },
    async save(input) {
      const { refusals, files } = await build(input);
      if (refusals.length > 0)
        throw new AppError('invalid-input', `The operator cannot take this selection: ${refusals.join(' ')}`, 'Leave out the proxies named, or change them first; nothing was written.');
      const profile = options.profile(input.clusterId);
      const slug = profile.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'cluster';
      const path = await options.saver.saveFolder(`${slug}-to-kubernetes`, files);
      return path === undefined ? { saved: false } : { saved: true, path };
    },
  };
}
