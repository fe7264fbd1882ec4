import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatLatency, formatPercent, formatRelativeTime } from '../../../renderer/src/format';

describe('display formatting', () => {
  it('writes sizes in binary units as Proxmox does', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(8 * 1024 ** 3)).toBe('8 GiB');
    expect(formatBytes(123.4 * 1024 ** 3)).toBe('123 GiB');
    expect(formatBytes(undefined)).toBe('—');
  });

  it('writes fractions as whole percentages and unknowns as a dash', () => {
    expect(formatPercent(0.423)).toBe('42%');
    expect(formatPercent(undefined)).toBe('—');
  });

  it('keeps the two largest units of a duration', () => {
    expect(formatDuration(93784)).toBe('1 d 2 h');
    expect(formatDuration(61)).toBe('1 min 1 s');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(0)).toBe('0 s');
  });

  it('says how long ago or how soon an instant is', () => {
    const now = Date.parse('2025-01-01T12:00:00Z');
    expect(formatRelativeTime('2025-01-01T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelativeTime('2025-01-01T12:00:30Z', now)).toBe('in 30 seconds');
    expect(formatRelativeTime('2024-12-31T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelativeTime('not a date', now)).toBe('—');
  });

  it('writes latency in ms below a second and in seconds above', () => {
    expect(formatLatency(12.4)).toBe('12 ms');
    expect(formatLatency(1400)).toBe('1.4 s');
  });
});
