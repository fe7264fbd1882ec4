/** Every route the simulator serves, in one table. */
import type { Route } from '../context';
import { clusterRoutes } from './cluster';
import { nodeRoutes } from './nodes';
import { storageRoutes } from './storage';
import { vmAgentRoutes } from './vm-agent';
import { vmCloneRoutes } from './vm-clone';
import { vmConfigRoutes } from './vm-config';
import { vmPowerRoutes } from './vm-power';

export const allRoutes: readonly Route[] = [
  ...clusterRoutes,
  ...nodeRoutes,
  ...storageRoutes,
  ...vmConfigRoutes,
  ...vmPowerRoutes,
  ...vmCloneRoutes,
  ...vmAgentRoutes,
];
