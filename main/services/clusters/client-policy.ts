/**
 * How the app's cluster clients treat a Proxmox node: one switch, read by
 * the clients the app builds (profiles/build-cluster.ts, the demo's) and by
 * the benchmarks, so a benchmark runs, or says it does not run, the app's
 * setting.
 *
 * Issue 11: the per-node pace (main/core/pve/pace.ts, 3 sends per node per
 * second, one per pveproxy worker; pve-manager PVE/Service/pveproxy.pm
 * `max_workers => 3`) is on, engaged under load ('under-load'): only while
 * two or more creates overlap, until 60 s after the last. On evidence: paced
 * always, one create took 1.26× Proxmox's own time (scripts/bench-core.ts 3)
 * against a goal of 1.10×, because a lone create sends bursts (the look that
 * sees a task end, then the config write and the resize at once) that wait
 * about a second each at 3 a second; unpaced, a bulk of 20 peaked at 14
 * requests a second on one node. Under load, a lone create is never held
 * (1.07-1.09×) and a bulk is paced from its second create until 60 s after
 * its last (the address reads of the boot): peak 3 (scripts/bench-bulk.ts).
 * Calls that name no node count against the node the URL reaches, which the
 * client learns from GET /cluster/status (`local`) at the first create.
 *
 * No send of a window is kept for writes here (`reservedForWrites: 0`): the
 * reserve helps a lone create paced always (a look and its follow-up write
 * in one window, 1.26× against 1.34×), which the app never paces; in a bulk
 * the writes of the other creates fill two sends of most windows, so the
 * reserve left the task listings one send in three and held every create
 * whose task had ended (a start seen two seconds late holds a node slot):
 * bench-bulk 1.16× with it, 1.13-1.14× without, the peak still 3.
 *
 * The connect doctor builds its own client, never paced: a one-shot check.
 */
import { DEFAULT_PACE, type PaceOptions } from '../../core';

export const APP_CLIENT_PACE: PaceOptions | false = { ...DEFAULT_PACE, engage: 'under-load', reservedForWrites: 0 };
