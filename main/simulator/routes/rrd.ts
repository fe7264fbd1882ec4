/**
 * RRD history (issue 15): `GET /nodes/{node}/rrddata` (pve-manager PVE/API2/Nodes.pm `rrddata`) and
 * `GET /nodes/{node}/qemu/{vmid}/rrddata` (qemu-server src/PVE/API2/Qemu.pm `rrddata`), both
 * PVE::RRD::create_rrd_data over the model in ../rrd-model.ts.
 */
import { vmidOf, type Route, type RouteRequest } from '../context';
import { fieldText, paramError, pveError } from '../errors';
import { int, str, type ParamSpec } from '../params';
import {
  firstPointS,
  nodePoint,
  nodeRrdFields,
  RRD_SETUP,
  RRD_TIMEFRAMES,
  rrdFilePath,
  rrdRows,
  upIntervals,
  vmPoint,
  vmRrdExists,
  vmRrdFields,
  type RrdCf,
  type RrdFormat,
  type RrdTimeframe,
} from '../rrd-model';

const cf: ParamSpec = { type: 'string', optional: true, enum: ['AVERAGE', 'MAX'] };
const vmTimeframe: ParamSpec = { type: 'string', enum: RRD_TIMEFRAMES };
// The schema (9.1.3) lists `decade` for nodes; releases before 9.0 refuse it below, as their enum had no such value.
const nodeTimeframe: ParamSpec = { type: 'string', enum: [...RRD_TIMEFRAMES, 'decade'] };

/** RRDs::fetch on a file pmxcfs has not written: the handler's die, a 500 (rrd-model.ts, reconstructed text). */
function missingFile(format: RrdFormat, vmid: number) {
  const file = rrdFilePath(format, 'vm', vmid);
  return pveError(
    500,
    `RRD error: rrdcached@unix:/var/run/rrdcached.sock: rrd_fetch_r failed: opening '${file}': No such file or directory`,
  );
}

function queryOf(req: RouteRequest) {
  const format = req.sim.version.rrdFormat;
  const timeframe = req.params.timeframe as RrdTimeframe;
  if (!RRD_SETUP[format][timeframe])
    throw paramError({ timeframe: fieldText('paramEnum', { vms: timeframe, 'vm, storage, node, sdn': RRD_TIMEFRAMES.join(', ') }) });
  return { format, timeframe, cf: (req.params.cf ?? 'AVERAGE') as RrdCf, nowS: req.sim.clock.wallMs() / 1000 };
}

/** A stable number per node name, so each node's curves differ and stay the same. */
function nodeSeed(node: string): number {
  let h = 7;
  for (const ch of node) h = Math.imul(h, 31) + ch.charCodeAt(0);
  return h;
}

export const rrdRoutes: Route[] = [
  {
    method: 'GET',
    path: '/nodes/{node}/rrddata',
    params: { node: str, timeframe: nodeTimeframe, cf },
    check: ({ sim, tokenId, path }) => sim.tokens.requireAll(tokenId, `/nodes/${path.node}`, ['Sys.Audit']),
    handle: (req) => {
      const q = queryOf(req);
      // An unknown or offline node never gets here: the server answers for any /nodes/{node} path first (server.ts).
      const seed = nodeSeed(req.path.node!);
      return rrdRows({ ...q, fields: nodeRrdFields(q.format), point: (t) => nodePoint(seed, q.format, t) });
    },
  },
  {
    method: 'GET',
    path: '/nodes/{node}/qemu/{vmid}/rrddata',
    params: { node: str, vmid: int, timeframe: vmTimeframe, cf },
    check: ({ sim, tokenId, path }) => sim.tokens.requireAll(tokenId, `/vms/${path.vmid}`, ['VM.Audit']),
    handle: (req) => {
      const q = queryOf(req);
      // No lookup of the VM on {node}: the RRD files are cluster-wide (pmxcfs), and the handler only names the file.
      const vm = req.sim.state.vm(vmidOf(req));
      if (!vmRrdExists(vm, req.sim.clock)) throw missingFile(q.format, vmidOf(req));
      const intervals = upIntervals(vm, req.sim.clock);
      const first = firstPointS(vm, req.sim.clock);
      return rrdRows({
        ...q,
        fields: vmRrdFields(q.format),
        point: (t) => (t < first ? undefined : vmPoint(vm, intervals, q.format, t)),
      });
    },
  },
];
