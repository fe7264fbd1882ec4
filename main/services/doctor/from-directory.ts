/**
 * A ResolveProfileConnection over the ClusterDirectory: a rerun on a saved
 * profile uses the cluster's own client (its secret stays where the
 * profile service keeps it) and checks the profile's own choices.
 */
import type { ClusterDirectory } from '../clusters/cluster';
import type { DoctorConnection, ResolveProfileConnection } from './ports';

export function profileFromDirectory(directory: ClusterDirectory): ResolveProfileConnection {
  return (profileId) => {
    const { profile, api } = directory.get(profileId);
    const diskSizes = Object.values(profile.machineTypes).map((m) => m.diskGiB ?? 0);
    const conn: DoctorConnection = {
      url: profile.url,
      tls: profile.tls,
      api,
      nodes: profile.nodes,
      isoStorage: profile.isoStorage,
      vmidRange: profile.vmidRange,
      templates: profile.templates,
    };
    if (profile.token.kind === 'secret') conn.tokenId = profile.token.tokenId;
    else conn.token = profile.token;
    if (profile.bridge) conn.bridge = profile.bridge;
    if (profile.vlanTag !== undefined) conn.vlanTag = profile.vlanTag;
    const diskGiB = Math.max(0, ...diskSizes);
    if (diskGiB > 0) conn.diskGiB = diskGiB;
    return conn;
  };
}
