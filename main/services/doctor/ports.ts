/**
 * What the doctor needs from the rest of main, as small ports: the profile
 * service (another area) resolves a saved profile's connection settings,
 * so the doctor never depends on how profiles or secrets are stored.
 */
import type { PveApi, TlsChoice, TokenSource } from '../../core';
import type { DoctorProgress } from '../../../shared/channels/doctor';

/** A saved profile's connection and the choices the doctor checks instead of guessing. */
export interface DoctorConnection {
  url: string;
  tls: TlsChoice;
  /** Where the token comes from; ignored when `api` is given. */
  token?: TokenSource;
  /** The token id, when known without reading the secret (shown in the report). */
  tokenId?: string;
  /** An already-built client for this profile (e.g. the ClusterDirectory's): used as is when the run overrides nothing. */
  api?: PveApi;
  nodes?: string[];
  isoStorage?: string;
  bridge?: string;
  vlanTag?: number;
  vmidRange?: { min: number; max: number };
  /** The largest disk size any machine type grows to; a template then needs a boot disk with a size. */
  diskGiB?: number;
  /** The saved profile's template catalogue: each entry's VMID, and each per-node one, is judged for its node. */
  templates?: Readonly<Record<string, { vmid: number; perNode?: Readonly<Record<string, number>> | undefined }>>;
}

/** Resolves a profile id; throws a not-found AppError for an unknown one. */
export type ResolveProfileConnection = (profileId: string) => Promise<DoctorConnection> | DoctorConnection;

export type DoctorProgressListener = (event: Omit<DoctorProgress, 'runId'>) => void;
