/**
 * The request log: every request the simulator answered, with its route,
 * parameters and status. Feeds the conformance test and the counters the
 * inventory-cost tests read (per route, per node, total; `clear()` between
 * refreshes).
 */
export interface RequestRecord {
  method: string;
  /** The path after /api2/json, as sent (percent-decoded per segment). */
  path: string;
  /** The path after /api2/json exactly as sent (percent-encoded), for schema matching. */
  rawPath: string;
  /** The route template it matched (`/nodes/{node}/qemu/{vmid}/config`), or the path if none did. */
  route: string;
  query: Record<string, string>;
  /** Form (or multipart) fields; a file part is recorded as its file name. */
  form: Record<string, string>;
  formKeys: string[];
  status: number;
  node?: string;
  tokenId?: string;
  /** The node whose pveproxy workers served it (the path's node, else the API's node), and its simulated queue + service ms. */
  loadNode?: string;
  latencyMs?: number;
  /** When it was answered (real ms since the epoch), stamped by the log: request rates over time. */
  at?: number;
  /** An `endless` fault's answer: body bytes written so far, and whether the client has dropped the connection. */
  bytesSent?: number;
  cut?: boolean;
}

export class RequestLog {
  private entries: RequestRecord[] = [];

  add(record: RequestRecord): void {
    record.at ??= Date.now();
    this.entries.push(record);
  }

  get records(): readonly RequestRecord[] {
    return this.entries;
  }

  get total(): number {
    return this.entries.length;
  }

  /** How many requests matched every given field. */
  count(filter: Partial<Pick<RequestRecord, 'method' | 'path' | 'route' | 'node' | 'status'>> = {}): number {
    return this.entries.filter((r) => Object.entries(filter).every(([k, v]) => r[k as keyof RequestRecord] === v)).length;
  }

  byRoute(): Record<string, number> {
    return tally(this.entries.map((r) => `${r.method} ${r.route}`));
  }

  byNode(): Record<string, number> {
    return tally(this.entries.flatMap((r) => (r.node ? [r.node] : [])));
  }

  clear(): void {
    this.entries = [];
  }
}

function tally(keys: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}
