/**
 * The Electron PowerState adapter: sleep and wake pass straight through;
 * battery and mains are told once per change, from the event where the
 * platform sends one, else from the minute read of isOnBatteryPower()
 * (Linux sends no on-battery event).
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PowerMonitor } from 'electron';
import { electronPowerState } from '../../main/electron/power-state';

function fakeMonitor() {
  let battery = false;
  const monitor = Object.assign(new EventEmitter(), { isOnBatteryPower: () => battery });
  return {
    monitor: monitor as unknown as Pick<PowerMonitor, 'on' | 'removeListener' | 'isOnBatteryPower'>,
    emit: (event: string) => monitor.emit(event),
    unplug: () => void (battery = true),
    plug: () => void (battery = false),
  };
}

afterEach(() => vi.useRealTimers());

describe('the Electron power state', () => {
  it('passes sleep and wake through, and stops when unsubscribed', () => {
    const fake = fakeMonitor();
    const power = electronPowerState(fake.monitor);
    const seen: string[] = [];
    const off = power.onSuspend(() => seen.push('suspend'));
    power.onResume(() => seen.push('resume'));
    fake.emit('suspend');
    fake.emit('resume');
    off();
    fake.emit('suspend');
    expect(seen).toEqual(['suspend', 'resume']);
    power.close();
  });

  it('tells a battery change once, from the event or, without one, from the minute read', () => {
    vi.useFakeTimers();
    const fake = fakeMonitor();
    const power = electronPowerState(fake.monitor);
    const seen: string[] = [];
    power.onBattery(() => seen.push('battery'));
    power.onAC(() => seen.push('ac'));

    fake.unplug();
    fake.emit('on-battery');
    fake.emit('on-battery');
    expect(seen).toEqual(['battery']);
    expect(power.isOnBattery()).toBe(true);

    // No event (Linux): the next read finds mains.
    fake.plug();
    vi.advanceTimersByTime(60_000);
    expect(seen).toEqual(['battery', 'ac']);
    expect(power.isOnBattery()).toBe(false);

    power.close();
    fake.unplug();
    vi.advanceTimersByTime(120_000);
    expect(seen).toEqual(['battery', 'ac']);
  });
});
