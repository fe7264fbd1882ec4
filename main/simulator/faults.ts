/**
 * Fault injection. Request faults match on method, route, path, node or
 * VMID and answer with a fixture, a 595/596, a delay, a hang or a reset
 * connection. Task faults make matching tasks fail or never end. Node and
 * lock faults change the cluster state itself.
 */
import { fixture } from '../../fixtures';
import type { ClusterState } from './state';
import type { TaskFaultDecision } from './tasks';
import type { TaskKind } from './types';

export type RequestFault =
  /** Answer with this fixture exactly as captured (status, reason, body). */
  | { kind: 'error'; fixture: string }
  /** pveproxy could not reach the node: 595 (refused) or 596 (timed out). */
  | { kind: 'unreachable'; status?: 595 | 596 }
  /** Hold the answer this many real milliseconds, then answer normally. */
  | { kind: 'delay'; ms: number }
  /** Never answer. */
  | { kind: 'hang' }
  /** Send the head and part of the body, then cut the connection. */
  | { kind: 'reset' }
  /**
   * Issue 22: answer 200 and never stop: `{"data":[` then VM entries for ever (chunked, no Content-Length), as fast as
   * the client reads or at `bytesPerSecond`. The request's record counts the bytes written (`bytesSent`) and says
   * when the client dropped the connection (`cut`). With `declaredBytes` it also announces that Content-Length.
   */
  | { kind: 'endless'; bytesPerSecond?: number; declaredBytes?: number }
  /** Issue 22: answer 200 with this body (JSON), whatever was asked: a node that answers the same page again. */
  | { kind: 'answer'; body: unknown };

export interface RequestMatch {
  method?: string;
  /** A route template such as `/nodes/{node}/qemu/{vmid}/config`. */
  route?: string;
  /** An exact path (after /api2/json) or a pattern. */
  path?: string | RegExp;
  node?: string;
  vmid?: number;
}

export interface TaskMatch {
  type?: TaskKind;
  node?: string;
  /** The task's id field: the VMID for VM tasks, the storage for imgdel. */
  id?: string | number;
}

export interface RequestInfo {
  method: string;
  route: string;
  path: string;
  node?: string;
  vmid?: number;
}

interface Rule<M, F> {
  match: M;
  fault: F;
  remaining: number;
}

export class Faults {
  private requestRules: Rule<RequestMatch, RequestFault>[] = [];
  private taskRules: Rule<TaskMatch, TaskFaultDecision>[] = [];

  constructor(private readonly state: ClusterState) {}

  /** Injects a request fault; `times` limits how often it fires (default: until removed). Returns a remover. */
  inject(match: RequestMatch, fault: RequestFault, times = Infinity): () => void {
    if (fault.kind === 'error') fixture(fault.fixture); // fail fast on a name that is not a fixture
    const rule = { match, fault, remaining: times };
    this.requestRules.push(rule);
    return () => (this.requestRules = this.requestRules.filter((r) => r !== rule));
  }

  /** Matching tasks end with the fixture's text as exitstatus (its `data.exitstatus`, else its message). */
  failTask(match: TaskMatch, fixtureName: string, times = Infinity): () => void {
    return this.addTaskRule(match, { failWith: exitTextOf(fixtureName) }, times);
  }

  /** Matching tasks do their work, then end with the fixture's exitstatus: a finished task with warnings. */
  warnTask(match: TaskMatch, fixtureName: string, times = Infinity): () => void {
    return this.addTaskRule(match, { finishWith: exitTextOf(fixtureName) }, times);
  }

  /** Matching tasks stay `running` for ever. */
  hangTask(match: TaskMatch, times = Infinity): () => void {
    return this.addTaskRule(match, { hang: true }, times);
  }

  /** A lock with no task behind it, which never clears (until `releaseLock`). */
  holdLock(vmid: number, lock = 'backup'): void {
    this.state.setLock(vmid, lock);
  }

  releaseLock(vmid: number): void {
    this.state.setLock(vmid, undefined);
  }

  /** The node stops answering: requests routed to it get 595, its guests list as `unknown` (spec 13). */
  nodeDown(node: string): void {
    this.state.setNodeOnline(node, false);
  }

  nodeUp(node: string): void {
    this.state.setNodeOnline(node, true);
  }

  clear(): void {
    this.requestRules = [];
    this.taskRules = [];
  }

  /** The first matching request fault, counted as fired. */
  forRequest(req: RequestInfo): RequestFault | undefined {
    const rule = this.requestRules.find((r) => r.remaining > 0 && requestMatches(r.match, req));
    if (!rule) return undefined;
    rule.remaining--;
    return rule.fault;
  }

  forTask(type: string, node: string, id: string): TaskFaultDecision | undefined {
    const kind = type === 'qmresize' ? 'resize' : type; // the duration key and the task type differ for resize only
    const rule = this.taskRules.find(
      (r) =>
        r.remaining > 0 &&
        (!r.match.type || r.match.type === kind) &&
        (!r.match.node || r.match.node === node) &&
        (r.match.id === undefined || String(r.match.id) === id),
    );
    if (!rule) return undefined;
    rule.remaining--;
    return rule.fault;
  }

  private addTaskRule(match: TaskMatch, fault: TaskFaultDecision, times: number): () => void {
    const rule = { match, fault, remaining: times };
    this.taskRules.push(rule);
    return () => (this.taskRules = this.taskRules.filter((r) => r !== rule));
  }
}

function requestMatches(m: RequestMatch, req: RequestInfo): boolean {
  if (m.method && m.method.toUpperCase() !== req.method) return false;
  if (m.route && m.route !== req.route) return false;
  if (m.node && m.node !== req.node) return false;
  if (m.vmid !== undefined && m.vmid !== req.vmid) return false;
  if (typeof m.path === 'string' && m.path !== req.path) return false;
  if (m.path instanceof RegExp && !m.path.test(req.path)) return false;
  return true;
}

function exitTextOf(name: string): string {
  const f = fixture(name);
  const body = f.body ? (JSON.parse(f.body) as { data?: { exitstatus?: unknown }; message?: unknown }) : {};
  if (typeof body.data?.exitstatus === 'string') return body.data.exitstatus;
  if (typeof body.message === 'string') return body.message.replace(/\n$/, '');
  return f.reason;
}
