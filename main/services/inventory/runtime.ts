/**
 * What the inventory remembers about a running guest between listings: its
 * agent address, its uptime and when it started. The agent is asked only
 * while the address is unknown (with a growing pause between attempts) or
 * after the uptime went backwards (the guest restarted and may have a new
 * address), never on every refresh.
 *
 * Issue 11: when a guest's agent first answers is learned from the guests
 * watched booting (the uptime at which the address came, median of the last
 * few), so a new guest's agent is asked once at that uptime, not from 40 s
 * on every 5 s; `dueAt` tells the inventory when to ask between listings.
 *
 * Issue 21: what is learned is when the agent could first answer, not when
 * its answer was read: a miss a second or two before the hit bounds it
 * (the middle of the two is learned), and once a boot is known a guest is
 * asked a step (`nearBootMs`) before it, then every step; an agent that
 * answers at that early ask teaches a step earlier still, so the expectation
 * settles just after the real boot instead of staying where late reads put it
 * (bench-bulk: the warm-up's 5 s retries taught 55 s for a 50 s boot, and
 * every proxy of the bulk was read 2-8 s after its agent could answer).
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
  /**
   * Once a boot time has been learned: the pause after a miss within NEAR_BOOT_S of it (default 1000 ms), since the
   * address is due within a second or two of the learned uptime.
   */
  nearBootMs?: number;
}

export const defaultAgentRetry: AgentRetry = { baseMs: 5_000, maxMs: 60_000, bootS: 40, nearBootMs: 1_000 };

/** How long past the expected boot the agent is still asked at the base pause. */
export const BOOT_GRACE_S = 60;
/** How long past a learned boot the agent is asked every `nearBootMs`. */
export const NEAR_BOOT_S = 5;
/** A miss at most this long (s) before the answer bounds when the agent could first answer. */
const MISS_BOUND_S = 2;
/** Boots remembered for the median. */
const BOOTS_KEPT = 8;

interface Guest {
  address?: string;
  /** The listing's uptime (whole seconds), and when (ms) that listing was made. */
  uptime: number;
  listedAt: number;
  /** The uptime the guest was first listed at: below the expected boot means its boot is being watched. */
  firstUptime: number;
  startedAtMs?: number;
  /** startedAtMs as ISO text, made once per start rather than on every refresh. */
  startedAtIso?: string;
  /** The uptime (s) at the last attempt that found no address in this boot. */
  missUptime?: number;
  /** Attempts that found no address once the guest was past its boot and grace: they double the pause. */
  attempts: number;
  nextTryAt: number;
}

/** A start time that jitters by the listing's rounding is the same start: keep the first one. */
const START_DRIFT_MS = 30_000;

export class GuestRuntime {
  private readonly guests = new Map<number, Guest>();
  /** Guests that reported an address while listed (this session), across their reboots and stops: not a create's boot. */
  private readonly addressed = new Set<number>();
  /** Uptimes (s) at which watched guests first reported an address, newest last. */
  private readonly boots: number[] = [];

  constructor(private readonly retry: AgentRetry = defaultAgentRetry) {}

  /** Records a listing entry; answers whether the agent should be asked for the address now. */
  observe(vmid: number, running: boolean, uptimeSeconds: number, nowMs: number): boolean {
    let guest = this.guests.get(vmid);
    if (!running) {
      if (guest) this.guests.delete(vmid);
      return false;
    }
    if (!guest || uptimeSeconds < guest.uptime) {
      guest = { uptime: uptimeSeconds, listedAt: nowMs, firstUptime: uptimeSeconds, attempts: 0, nextTryAt: 0 };
      this.guests.set(vmid, guest);
    }
    guest.uptime = uptimeSeconds;
    guest.listedAt = nowMs;
    // Wall time, not the poller's clock: the start is shown as a date.
    const startedAt = Date.now() - uptimeSeconds * 1000;
    if (guest.startedAtMs === undefined || Math.abs(guest.startedAtMs - startedAt) > START_DRIFT_MS) {
      guest.startedAtMs = startedAt;
      guest.startedAtIso = new Date(startedAt).toISOString();
    }
    return this.due(vmid, nowMs);
  }

  /** Whether the agent of a listed guest should be asked now: no address yet, past its pause and its expected boot. */
  due(vmid: number, nowMs: number): boolean {
    return nowMs >= this.dueAt(vmid);
  }

  /** When (ms) the agent of a listed guest is next to be asked; Infinity when it has its address or is not listed running. */
  dueAt(vmid: number): number {
    const guest = this.guests.get(vmid);
    if (!guest || guest.address !== undefined) return Number.POSITIVE_INFINITY;
    // The listing's uptime is whole seconds rounded down, so the guest is at least this old by then. A learned boot
    // is probed a step before it (see the header), so the expectation can also learn that the agent answers sooner.
    const booted = guest.listedAt + Math.max(0, this.expectedBootS() - this.probeS() - guest.uptime) * 1000;
    return Math.max(guest.nextTryAt, booted);
  }

  /** The uptime (s) at which a new guest's agent is first asked: learned from watched boots, else `bootS`. */
  expectedBootS(): number {
    if (this.boots.length === 0) return this.retry.bootS ?? 0;
    const sorted = [...this.boots].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)]!;
  }

  /** How far before a learned boot the first ask goes: one near-boot step; none without a learned boot. */
  private probeS(): number {
    return this.boots.length > 0 ? (this.retry.nearBootMs ?? this.retry.baseMs) / 1000 : 0;
  }

  /** The agent's answer: an address, or none yet (agent not up, no routable address, a failed read). */
  recordAddress(vmid: number, address: string | undefined, nowMs: number): void {
    const guest = this.guests.get(vmid);
    if (!guest) return;
    const uptime = guest.uptime + Math.max(0, nowMs - guest.listedAt) / 1000;
    if (address) {
      // Listed before its agent could answer: the boot was watched, so this uptime is when such a guest answers.
      if (guest.address === undefined && guest.firstUptime < this.expectedBootS()) this.learnBoot(this.bootOf(guest, uptime));
      guest.address = address;
      guest.attempts = 0;
      this.addressed.add(vmid);
      return;
    }
    // Around the boot: every baseMs, since the address is due any moment (every nearBootMs right past a learned
    // boot). Long after it: a growing pause.
    const expected = this.expectedBootS();
    const booting = uptime < expected + BOOT_GRACE_S;
    const nearBoot = this.boots.length > 0 && uptime < expected + NEAR_BOOT_S;
    guest.missUptime = uptime;
    if (!booting) guest.attempts++;
    guest.nextTryAt =
      nowMs +
      (nearBoot
        ? (this.retry.nearBootMs ?? this.retry.baseMs)
        : booting
          ? this.retry.baseMs
          : Math.min(this.retry.maxMs, this.retry.baseMs * 2 ** (guest.attempts - 1)));
  }

  /**
   * When the agent of a watched boot could first answer, from the uptime its address came at: the middle between that
   * and a miss at most MISS_BOUND_S before it; a step earlier when it answered a probe before the learned boot (it may
   * answer earlier still: the next probe tells); else the uptime of the answer.
   */
  private bootOf(guest: Guest, hitS: number): number {
    if (guest.missUptime !== undefined && hitS - guest.missUptime <= MISS_BOUND_S) return (guest.missUptime + hitS) / 2;
    const expected = this.expectedBootS();
    if (this.boots.length > 0 && hitS < expected) return Math.max(0, hitS - this.probeS());
    return hitS;
  }

  private learnBoot(uptimeS: number): void {
    this.boots.push(uptimeS);
    if (this.boots.length > BOOTS_KEPT) this.boots.shift();
  }

  address(vmid: number): string | undefined {
    return this.guests.get(vmid)?.address;
  }

  /**
   * Issue 27: an address kept from before a restart, for the same boot (memory.ts): the guest is listed running with
   * it, as if its agent had just told it, so it is not asked again.
   */
  remember(vmid: number, uptimeSeconds: number, nowMs: number, address: string): void {
    this.observe(vmid, true, uptimeSeconds, nowMs);
    const guest = this.guests.get(vmid)!;
    guest.address = address;
    this.addressed.add(vmid);
  }

  /** What is worth keeping across a restart of a guest with an address: it, and the boot it belongs to. */
  boot(vmid: number): { address: string; uptime: number; startedAtMs: number } | undefined {
    const guest = this.guests.get(vmid);
    if (!guest?.address || guest.startedAtMs === undefined) return undefined;
    return { address: guest.address, uptime: guest.uptime, startedAtMs: guest.startedAtMs };
  }

  startedAt(vmid: number): string | undefined {
    return this.guests.get(vmid)?.startedAtIso;
  }

  /** Whether the guest had an address before (so a missing one now is a reboot's, not a create still provisioning). */
  addressedBefore(vmid: number): boolean {
    return this.addressed.has(vmid);
  }

  retain(listed: { has(vmid: number): boolean }): void {
    for (const vmid of this.guests.keys()) if (!listed.has(vmid)) this.guests.delete(vmid);
    for (const vmid of this.addressed) if (!listed.has(vmid)) this.addressed.delete(vmid);
  }
}
