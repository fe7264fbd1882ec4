/** The NoCloud seed: what the provider core uses to build and name a proxy's seed ISO. */
export { SEED_LABEL, buildSeedIso, metaData, seedIsoName, seedVolumeId, type SeedRequest } from './nocloud';
export { buildVendorData } from './vendor-data';
export { GUEST_AGENT_SCRIPT } from './guest-agent-script';
export { buildIso, type IsoFile, type IsoOptions } from './iso9660';
