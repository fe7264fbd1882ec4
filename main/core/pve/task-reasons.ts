/**
 * Why a Proxmox task failed, read from its log's tail (issue 25): the exit status alone is often only the last
 * words, e.g. a migrate's `migration aborted`, while Proxmox wrote the reason into the log first.
 *
 * pve-guest-common src/PVE/AbstractMigrate.pm migrate: a failure in `prepare` or a phase is logged as
 * `ERROR: migration aborted (duration HH:MM:SS): <reason>` and the task dies with `migration aborted`; QemuMigrate.pm
 * scan_local_volumes logs each volume it cannot move as `WARN: can't migrate local disk '<volid>': <why>` and dies with
 * "Problem found while scanning volumes - can't migrate VM - check log". pve-common src/PVE/RESTEnvironment.pm
 * fork_worker: a worker's die is written to the log as `TASK ERROR: <text>` (the exit status is the same text).
 *
 * Each reason a retry can never change is permanent with what to do; any other reason keeps the task's class
 * (transient) and is only said.
 */

/** Lines read from the end of a failed task's log. */
export const TASK_LOG_TAIL = 50;

const PREFIX = /^(?:TASK ERROR|ERROR|WARN|WARNING): /;
/** AbstractMigrate.pm log stamps each line `%F %H:%M:%S ` (strftime, localtime); fork_worker's TASK lines have none. */
const STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} /;
const ABORTED = /^migration aborted \(duration [^)]*\): /;
const SCAN_PROBLEM = /^Problem found while scanning volumes/;

/** The reason a failed task's log tail gives, or undefined when it says nothing more than the exit status. */
export function taskFailureReason(stamped: readonly string[], exitstatus: string): string | undefined {
  const lines = stamped.map((l) => l.replace(STAMP, ''));
  const errors = lines.filter((l) => /^(?:TASK ERROR|ERROR): /.test(l)).map((l) => l.replace(PREFIX, '').replace(ABORTED, '').trim());
  const last = [...errors].reverse().find((e) => e.length > 0 && e !== exitstatus);
  if (!last) return undefined;
  if (SCAN_PROBLEM.test(last)) {
    // The volumes it could not move are the WARN lines before it.
    const volumes = lines.filter((l) => /^WARN: can't migrate local disk /.test(l)).map((l) => l.replace(PREFIX, ''));
    if (volumes.length > 0) return volumes.join('; ');
  }
  return last;
}

interface ReasonRule {
  words: RegExp;
  hint: (m: RegExpExecArray) => string;
}

/** Reasons no retry can change (qemu-server src/PVE/QemuMigrate.pm prepare and scan_local_volumes). */
const PERMANENT_REASONS: readonly ReasonRule[] = [
  {
    // QemuMigrate.pm prepare, check_local_resources: usbN, hostpciN, serialN (not a socket), parallelN, virtiofsN, ivshmem.
    words: /can't migrate VM which uses local devices: (.+)$/,
    hint: (m) =>
      `Remove ${m[1]} from the VM's Hardware in Proxmox (a passed-through device ties it to its node), then migrate; or leave it where it is.`,
  },
  {
    words: /can't migrate local disk '[^']+': local cdrom image/,
    hint: () => "Eject the ISO from the VM's CD-ROM, or keep it on a shared storage, then migrate.",
  },
  {
    words: /can't migrate to '[^']+': missing mapped devices (.+)$/,
    hint: (m) => `Map ${m[1]} on the target node too (Datacenter → Resource Mappings), or pick a node that has it.`,
  },
  {
    words: /can't live migrate running VM which uses following mapped devices: (.+)$/,
    hint: (m) => `${m[1]} cannot move live: shut the VM down, then migrate it offline.`,
  },
  {
    words: /can't live migrate attached local disks without with-local-disks option/,
    hint: () => 'Shut the VM down and migrate it offline, or move its disks to a shared storage.',
  },
];

/** The class and hint of a failed task's reason: permanent when no retry can change it, else the task's transient. */
export function classifyTaskReason(reason: string | undefined): { kind: 'permanent' | 'transient'; hint?: string } {
  if (reason === undefined) return { kind: 'transient' };
  for (const rule of PERMANENT_REASONS) {
    const m = rule.words.exec(reason);
    if (m) return { kind: 'permanent', hint: rule.hint(m) };
  }
  return { kind: 'transient' };
}
