/**
 * What the inventory remembers about a running guest between listings: its
 * agent address, its uptime and when it started. The agent is asked only
 * while the address is unknown (with a growing pause between attempts) or
 * after the uptime went backwards (the guest restarted and may have a new
 * address), never on every refresh.
 */
export interface AgentRetry {
  /** The pause after an attempt that found no address; doubles per attempt once the guest is past its boot. */
  baseMs: number;
  maxMs: number;
  /**
   * Issue 11: how long a freshly started guest takes before its agent can report an address, in seconds of its
   * uptime (the listing's `uptime`, so it holds at any simulator time scale). The agent is not asked before, and
   * is asked every `baseMs` from then until `bootS + BOOT_GRACE_S`, after which the pause doubles as before.
   * Default 40: F21's guest reported its address 50 s after start (kernel, cloud-init, the agent, DHCP); asking
   * from 40 s on costs about three reads per guest instead of one every 5-35 s from its first second.
   */
  bootS?: number;
}

export const defaultAgentRetry: AgentRetry = { baseMs: 5_000, maxMs: 60_000, bootS: 40 };

/** How long past the expected boot the agent is still asked at the base pause. */
export const BOOT_GRACE_S = 60;

interface Guest {
  address?: string;
  uptime: number;
  startedAtMs?: number;
  /** startedAtMs as ISO text, made once per start rather than on every refresh. */
  startedAtIso?: string;
  /** Attempts that found no address once the guest was past its boot and grace: they double the pause. */
  attempts: number;
  nextTryAt: number;
}

/** A start time that jitters by the listing's rounding is the same start: keep the first one. */
const START_DRIFT_MS = 30_000;

export class GuestRuntime {
  private readonly guests = new Map<number, Guest>();

  constructor(private readonly retry: AgentRetry = defaultAgentRetry) {}

  /** Records a listing entry; answers whether the agent should be asked for the address now. */
  observe(vmid: number, running: boolean, uptimeSeconds: number, nowMs: number): boolean {
    let guest = this.guests.get(vmid);
    if (!running) {
      if (guest) this.guests.delete(vmid);
      return false;
    }
    if (!guest || uptimeSeconds < guest.uptime) {
      guest = { uptime: uptimeSeconds, attempts: 0, nextTryAt: 0 };
      this.guests.set(vmid, guest);
    }
    guest.uptime = uptimeSeconds;
    // Wall time, not the poller's clock: the start is shown as a date.
    const startedAt = Date.now() - uptimeSeconds * 1000;
    if (guest.startedAtMs === undefined || Math.abs(guest.startedAtMs - startedAt) > START_DRIFT_MS) {
      guest.startedAtMs = startedAt;
      guest.startedAtIso = new Date(startedAt).toISOString();
    }
    return guest.address === undefined && nowMs >= guest.nextTryAt && uptimeSeconds >= (this.retry.bootS ?? 0);
  }

  /** The agent's answer: an address, or none yet (agent not up, no routable address, a failed read). */
  recordAddress(vmid: number, address: string | undefined, nowMs: number): void {
    const guest = this.guests.get(vmid);
    if (!guest) return;
    if (address) {
      guest.address = address;
      guest.attempts = 0;
      return;
    }
    // Around the boot: every baseMs, since the address is due any moment. Long after it: a growing pause.
    const booting = guest.uptime < (this.retry.bootS ?? 0) + BOOT_GRACE_S;
    if (!booting) guest.attempts++;
    guest.nextTryAt = nowMs + (booting ? this.retry.baseMs : Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (guest.attempts - 1)));
  }

  address(vmid: number): string | undefined {
    return this.guests.get(vmid)?.address;
  }

  startedAt(vmid: number): string | undefined {
    return this.guests.get(vmid)?.startedAtIso;
  }

  retain(listed: { has(vmid: number): boolean }): void {
    for (const vmid of this.guests.keys()) if (!listed.has(vmid)) this.guests.delete(vmid);
  }
}
