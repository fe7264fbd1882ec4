/**
 * A node's recent checks for the trend charts (latency, CPU, memory): a ring
 * buffer of fixed capacity that also lets go of points older than the kept
 * span (at least an hour), so memory stays flat whatever the check rate.
 */
import type { HealthPoint } from '../../../shared/channels/health';

export class HealthHistory {
  private readonly ring: (HealthPoint | undefined)[];
  /** Index of the oldest point kept. */
  private head = 0;
  private size = 0;

  constructor(
    private readonly keepMs: number,
    maxPoints: number,
  ) {
    this.ring = new Array<HealthPoint | undefined>(Math.max(1, maxPoints));
  }

  add(point: HealthPoint, nowMs = Date.now()): void {
    const capacity = this.ring.length;
    this.ring[(this.head + this.size) % capacity] = point;
    if (this.size < capacity) this.size++;
    else this.head = (this.head + 1) % capacity; // full: the oldest is overwritten
    const oldest = nowMs - this.keepMs;
    while (this.size > 1 && Date.parse(this.ring[this.head]!.at) < oldest) {
      this.ring[this.head] = undefined;
      this.head = (this.head + 1) % this.ring.length;
      this.size--;
    }
  }

  list(): HealthPoint[] {
    const out: HealthPoint[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.ring[(this.head + i) % this.ring.length]!);
    return out;
  }
}
