/**
 * Proxmox tasks: a UPID, a log, `status: running` while the work runs, then
 * `stopped` with `exitstatus` OK or the error text (F16). Work is an async
 * function on simulated time; a task fault can fail it or keep it running
 * for ever.
 */
import { fixtureJson } from '../../fixtures';
import type { SimClock } from './clock';
import type { TaskKind } from './types';

export interface SimTask {
  upid: string;
  node: string;
  type: string;
  id: string;
  user: string;
  tokenid?: string;
  pid: number;
  pstart: number;
  starttime: number;
  status: 'running' | 'stopped';
  exitstatus?: string;
  endtime?: number;
  log: string[];
  /** Simulated ms at start and end, for the physics tests and the bench. */
  simStart: number;
  simEnd?: number;
}

/** Thrown inside task work: the task ends with this exitstatus. */
export class TaskFailure extends Error {}

export interface TaskOwner {
  /** `user@realm!tokenid`. */
  tokenId: string;
}

export type TaskWork = (task: SimTask) => Promise<void>;

export interface TaskFaultDecision {
  /** Fail with this exitstatus before the work's effect. */
  failWith?: string;
  /** Never end. */
  hang?: boolean;
  /** Do the work, then end with this exitstatus: a task that finished but logged warnings (`WARNINGS: <n>`). */
  finishWith?: string;
}

const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');

export class TaskRunner {
  readonly tasks = new Map<string, SimTask>();
  private nextPid = 0x0010f9dc;
  private readonly pstart = 0x02801da1;

  constructor(
    private readonly clock: SimClock,
    private readonly faultFor: (type: TaskKind | string, node: string, id: string) => TaskFaultDecision | undefined,
  ) {}

  /** Starts a task; `onFail` undoes what the request already did (a clone's half-made VM). */
  start(node: string, type: TaskKind | string, id: string | number, owner: TaskOwner, work: TaskWork, onFail?: () => void): SimTask {
    const pid = this.nextPid++;
    const starttime = Math.floor(Date.now() / 1000);
    const upid = `UPID:${node}:${hex(pid)}:${hex(this.pstart)}:${hex(starttime)}:${type}:${id}:${owner.tokenId}:`;
    const [user, tokenid] = owner.tokenId.split('!');
    const task: SimTask = {
      upid,
      node,
      type,
      id: String(id),
      user: user!,
      pid,
      pstart: this.pstart,
      starttime,
      status: 'running',
      log: [],
      simStart: this.clock.now(),
    };
    if (tokenid) task.tokenid = tokenid;
    this.tasks.set(upid, task);
    void this.run(task, work, onFail);
    return task;
  }

  get(upid: string): SimTask | undefined {
    return this.tasks.get(upid);
  }

  /**
   * Stops a running task as `DELETE /nodes/{node}/tasks/{upid}` does: the worker gets SIGTERM, dies with "received
   * interrupt" and undoes what it had begun (a clone's half-made VM), like any failure. A task that already ended is
   * left as it is. True when the task was running.
   */
  stop(upid: string): boolean {
    const interrupt = this.interrupts.get(upid);
    if (!interrupt) return false;
    interrupt();
    return true;
  }

  private readonly interrupts = new Map<string, () => void>();

  private async run(task: SimTask, work: TaskWork, onFail?: () => void): Promise<void> {
    const fault = this.faultFor(task.type, task.node, task.id);
    const interrupted = new Promise<never>((_, reject) =>
      this.interrupts.set(task.upid, () => reject(new TaskFailure(interruptedExitStatus()))),
    );
    try {
      const body = async () => {
        if (fault?.hang) return await new Promise<void>(() => undefined);
        if (fault?.failWith) throw new TaskFailure(fault.failWith);
        await work(task);
      };
      await Promise.race([body(), interrupted]);
      this.finish(task, fault?.finishWith ?? 'OK');
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      onFail?.();
      this.finish(task, text);
    } finally {
      this.interrupts.delete(task.upid);
    }
  }

  private finish(task: SimTask, exitstatus: string): void {
    task.log.push(exitstatus === 'OK' ? 'TASK OK' : `TASK ERROR: ${exitstatus}`);
    task.status = 'stopped';
    task.exitstatus = exitstatus;
    task.endtime = Math.floor(Date.now() / 1000);
    task.simEnd = this.clock.now();
  }

  /** Waits (polling simulated time) until `isFree` holds; used by start and stop, which queue behind a lock (F3). */
  async waitUntil(isFree: () => boolean): Promise<void> {
    while (!isFree()) await this.clock.sleep(50);
  }
}

/** The exitstatus of a task stopped by DELETE: pve-common's fork_worker dies with "received interrupt" on SIGTERM. */
function interruptedExitStatus(): string {
  return fixtureJson<{ data: { exitstatus: string } }>('sim_task_stopped_interrupted')!.data.exitstatus;
}
