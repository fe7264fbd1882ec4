/**
 * The cloud-init NoCloud seed a proxy VM boots with (spec entry 5): an ISO
 * 9660 image labelled `cidata` holding `user-data` (the request's
 * cloud-init, byte for byte, never parsed), `meta-data` and `vendor-data`,
 * and `network-config` for a static address (issue 24, network-config.ts).
 * Nothing here logs or quotes the cloud-init text: error messages name the
 * problem only.
 */
import { cloudYaml } from '../../../shared/domain/cloud-yaml';
import { permanent } from '../provider/rules/errors';
import { buildIso } from './iso9660';
import { buildVendorData } from './vendor-data';

/** The volume label cloud-init's NoCloud datasource looks for. */
export const SEED_LABEL = 'cidata';

export interface SeedRequest {
  /** The proxy's name: instance-id and hostname in the guest, and the ISO's file name. */
  name: string;
  /** The request's cloud-init, written as its UTF-8 bytes. */
  userData: string;
  /**
   * meta-data's instance-id; default the name (what create writes). A new one makes cloud-init run its
   * first-boot modules again (issue 16's reconfigure of the user-data); the same one keeps it quiet.
   */
  instanceId?: string;
  /** Extra vendor-data from the profile, if any. */
  vendorData?: string;
  installGuestAgent: boolean;
  /** Timestamp of every date in the image; fixed for reproducible output. Defaults to the current time. */
  now?: Date;
  /**
   * Issue 24: NoCloud's `network-config` (version 2, network-config.ts), for a static address; absent, the seed has no
   * such file and the guest takes DHCP as before.
   */
  networkConfig?: string;
}

const encoder = new TextEncoder();
// With the u flag this matches only unpaired surrogates, which have no UTF-8 form.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
// A line break would add keys to meta-data, and YAML 1.1 readers (cloud-init's) also break lines at U+2028 and
// U+2029; other control characters are no hostname either; U+FFFE and U+FFFF make PyYAML refuse the whole file.
const NOT_IN_META_DATA = /[\p{Cc}\p{Zl}\p{Zp}\uFFFE\uFFFF]/u;

export function buildSeedIso(request: SeedRequest): Uint8Array {
  const { name, userData } = request;
  if (name === '') throw permanent('The seed ISO needs an instance name, and the name is empty.', 'Give the proxy a name.');
  const unwritable = (text: string) => NOT_IN_META_DATA.test(text) || LONE_SURROGATE.test(text);
  if (unwritable(name) || name.includes('/') || unwritable(request.instanceId ?? '')) {
    throw permanent(
      'The proxy name contains a control character, a line break or "/", which cannot go into the seed.',
      'Use letters, digits and dashes in the proxy name.',
    );
  }
  if (LONE_SURROGATE.test(userData)) {
    throw permanent(
      'The cloud-init text is not valid Unicode (it has an unpaired surrogate), so it cannot be written byte for byte.',
      'Re-save the cloud-init text as UTF-8 and try again.',
    );
  }
  if (LONE_SURROGATE.test(request.vendorData ?? '')) {
    throw permanent(
      "The profile's vendor-data is not valid Unicode (it has an unpaired surrogate).",
      "Re-enter the profile's vendor-data as plain UTF-8 text.",
    );
  }
  const vendorData = buildVendorData(request.vendorData ?? '', request.installGuestAgent);
  return buildIso(
    [
      { name: 'user-data', bytes: encoder.encode(userData) },
      { name: 'meta-data', bytes: encoder.encode(metaData(name, request.instanceId)) },
      // Always present, even empty, so cloud-init does not look for vendor-data elsewhere.
      { name: 'vendor-data', bytes: encoder.encode(vendorData) },
      ...(request.networkConfig === undefined ? [] : [{ name: 'network-config', bytes: encoder.encode(request.networkConfig) }]),
    ],
    { volumeId: SEED_LABEL, now: request.now ?? new Date(), applicationId: 'EGRESS DESK' },
  );
}

/**
 * meta-data: the instance id (a new one makes cloud-init run again; default the name) and the hostname (the name),
 * both double-quoted strings (cloud-yaml.ts: plain, a proxy named `yes` or `off` is a boolean to cloud-init).
 */
export function metaData(name: string, instanceId: string = name): string {
  return cloudYaml({ 'instance-id': instanceId, 'local-hostname': name });
}

/** The seed's file name on the ISO storage; Proxmox's upload requires the .iso suffix (F12). */
export function seedIsoName(name: string): string {
  return `${name}-seed.iso`;
}

/** The volume id the VM's ide2 CD-ROM refers to. */
export function seedVolumeId(isoStorage: string, name: string): string {
  return `${isoStorage}:iso/${seedIsoName(name)}`;
}
