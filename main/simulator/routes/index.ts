/** Every route the simulator serves, in one table. */
import type { Route } from '../context';
import { clusterRoutes } from './cluster';
import { nodeRoutes } from './nodes';
import { rrdRoutes } from './rrd';
import { storageRoutes } from './storage';
import { taskListRoutes } from './tasks';
import { templateBuildRoutes } from './template-build';
import { vmAgentRoutes } from './vm-agent';
import { vmCloneRoutes } from './vm-clone';
import { vmConfigRoutes } from './vm-config';
import { vmMigrateRoutes } from './vm-migrate';
import { vmPowerRoutes } from './vm-power';
import { vmSnapshotRoutes } from './vm-snapshot';

export const allRoutes: readonly Route[] = [
  ...clusterRoutes,
  ...nodeRoutes,
  ...taskListRoutes,
  ...storageRoutes,
  ...vmConfigRoutes,
  ...vmPowerRoutes,
  ...vmSnapshotRoutes,
  ...vmCloneRoutes,
  ...vmMigrateRoutes,
  ...vmAgentRoutes,
  ...templateBuildRoutes,
  ...rrdRoutes,
];
