/**
 * Which clusters wait for their token secret. Main says it two ways, both
 * its own: the profile's `secretAvailable` (nothing held after a restart or
 * an import) and the inventory's `secret-missing` status (a secret that
 * could not be had when a listing needed it). Views read this to word that
 * state as what it is, not as a broken, empty or template-less cluster.
 */
import type { ClusterInventory } from '../../../shared/channels/inventory';
import type { ProfileSummary } from '../../../shared/domain/profile';
import { useInventory } from './inventory';
import { clustersOf, useProfiles } from './profiles';

export function secretNeeded(profile: ProfileSummary, inventory: readonly ClusterInventory[] = []): boolean {
  if (profile.demo) return false;
  if (!profile.secretAvailable && profile.token.secretStorage !== 'file') return true;
  return inventory.find((c) => c.clusterId === profile.id)?.status.state === 'secret-missing';
}

/** The clusters whose secret is needed, in the list's order. */
export function useSecretsNeeded(): ProfileSummary[] {
  const list = useProfiles((s) => s.list);
  const inventory = useInventory((s) => s.clusters);
  return clustersOf(list).filter((p) => secretNeeded(p, inventory));
}

/** Whether one cluster's secret is needed. */
export function useSecretNeeded(clusterId: string | undefined): boolean {
  return useSecretsNeeded().some((p) => p.id === clusterId);
}
