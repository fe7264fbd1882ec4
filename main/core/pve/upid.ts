/**
 * Proxmox task ids. A UPID names the node that runs the task, so a task is
 * always polled on that node, whatever node the call went to.
 * Form: `UPID:<node>:<pid hex>:<pstart hex>:<starttime hex>:<type>:<id>:<user>:`
 */
export interface ParsedUpid {
  node: string;
  pid: number;
  pstart: number;
  /** Seconds since the epoch. */
  starttime: number;
  type: string;
  /** The object the task works on (a VMID, a storage); may be empty. */
  id: string;
  /** `user@realm` or `user@realm!tokenid`. */
  user: string;
}

const upidRe = /^UPID:([^:]+):([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,}):([0-9A-Fa-f]{8}):([^:]+):([^:]*):([^:]+):$/;

export function parseUpid(upid: string): ParsedUpid {
  const m = upidRe.exec(upid);
  if (!m) throw new Error(`not a Proxmox task id: ${JSON.stringify(upid.slice(0, 120))}`);
  // Every group takes part in a match (the id's may be empty).
  const [node = '', pid = '', pstart = '', starttime = '', type = '', id = '', user = ''] = m.slice(1);
  return { node, pid: parseInt(pid, 16), pstart: parseInt(pstart, 16), starttime: parseInt(starttime, 16), type, id, user };
}

const hex8 = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');

/** The inverse of parseUpid, for the simulator and tests. */
export function formatUpid(u: ParsedUpid): string {
  return `UPID:${u.node}:${hex8(u.pid)}:${hex8(u.pstart)}:${hex8(u.starttime)}:${u.type}:${u.id}:${u.user}:`;
}

/**
 * A finished task succeeded when its exitstatus is `OK` or `WARNINGS: <n>`
 * (Proxmox's own view: the task finished, it only logged warnings).
 */
export function taskSucceeded(exitstatus: string | undefined): boolean {
  return exitstatus === 'OK' || (exitstatus !== undefined && /^WARNINGS: \d+$/.test(exitstatus));
}
