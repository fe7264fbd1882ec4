/** What a route handler gets: the cluster, tasks, tokens, time and the request's own values. */
import type { TokenStore } from './auth';
import type { SimClock } from './clock';
import type { Faults } from './faults';
import type { PveproxyLoad } from './load';
import type { ParamSpec, ParamSpecs } from './params';
import type { Physics } from './physics';
import type { ClusterState } from './state';
import type { TaskRunner } from './tasks';
import type { TaskKind } from './types';
import type { VersionProfile } from './versions';

export interface SimContext {
  state: ClusterState;
  tasks: TaskRunner;
  tokens: TokenStore;
  clock: SimClock;
  faults: Faults;
  durations: Record<TaskKind, number>;
  /** Bandwidth and the byte-bound tasks' floors (issue 11). */
  physics: Physics;
  /** pveproxy's workers per node (issue 11). */
  load: PveproxyLoad;
  /** The node whose URL serves the API: cluster-wide calls count against it. */
  apiNode: string;
  agentDelayMs: number;
  /** The Proxmox VE release this cluster answers as (versions.ts). */
  version: VersionProfile;
  /** The leaf certificate's SHA-256, as /nodes reports it. */
  fingerprint: string;
}

export interface UploadedFile {
  filename: string;
  bytes: Uint8Array;
}

export interface RouteRequest {
  sim: SimContext;
  /** Path placeholders, decoded: `{node}`, `{vmid}`, … */
  path: Record<string, string>;
  /** Query (GET/DELETE) or form (POST/PUT) values. */
  params: Record<string, string>;
  tokenId: string;
  file?: UploadedFile;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Template under /api2/json, with `{name}` placeholders as the API schema writes them. */
  path: string;
  params: ParamSpecs;
  /** Keys like `net0` that the schema writes as `net[n]`. */
  indexed?: [RegExp, ParamSpec][];
  /** The permission check, after parameter verification (may also filter inside the handler). */
  check?: (req: RouteRequest) => void;
  handle: (req: RouteRequest) => unknown;
}

export const vmidOf = (req: RouteRequest): number => Number(req.path.vmid);

/** A handler's answer that is the whole body, not wrapped in `{data}` (the task log's `{data, total}`). */
export class WholeBody {
  constructor(readonly body: object) {}
}
