/** A node's recent checks for trend charts: kept by age (at least an hour) and capped in count, so memory stays flat. */
import type { HealthPoint } from '../../../shared/channels/health';

export class HealthHistory {
  private points: HealthPoint[] = [];

  constructor(
    private readonly keepMs: number,
    private readonly maxPoints: number,
  ) {}

  add(point: HealthPoint, nowMs = Date.now()): void {
    this.points.push(point);
    const oldest = nowMs - this.keepMs;
    let drop = Math.max(0, this.points.length - this.maxPoints);
    while (drop < this.points.length && Date.parse(this.points[drop]!.at) < oldest) drop++;
    if (drop > 0) this.points = this.points.slice(drop);
  }

  list(): HealthPoint[] {
    return [...this.points];
  }
}
