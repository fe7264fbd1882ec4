/**
 * The scheduled checks' PowerState port over Electron's `powerMonitor`
 * (usable once the app is ready). `suspend` and `resume` are emitted on every
 * desktop platform; `on-ac` and `on-battery` are not (Electron 45's
 * electron.d.ts marks `on-ac` darwin and win32, `on-battery` darwin only),
 * while `isOnBatteryPower()` answers everywhere. So the adapter also reads
 * `isOnBatteryPower()` once a minute and after a resume, and tells its
 * listeners when the answer changed, whichever way it learned it.
 */
import type { PowerMonitor } from 'electron';
import type { PowerState } from '../services/checks/power-state';

/** How often the battery state is read where no event says it changed. */
const BATTERY_READ_MS = 60_000;

export function electronPowerState(monitor: Pick<PowerMonitor, 'on' | 'removeListener' | 'isOnBatteryPower'>): PowerState & {
  close(): void;
} {
  let onBattery = monitor.isOnBatteryPower();
  const battery = new Set<() => void>();
  const ac = new Set<() => void>();
  const changed = () => {
    const now = monitor.isOnBatteryPower();
    if (now === onBattery) return;
    onBattery = now;
    for (const listener of now ? battery : ac) listener();
  };
  monitor.on('on-battery', changed);
  monitor.on('on-ac', changed);
  monitor.on('resume', changed);
  const reader = setInterval(changed, BATTERY_READ_MS);
  reader.unref();

  const on = (event: 'suspend' | 'resume', listener: () => void) => {
    monitor.on(event as 'suspend', listener);
    return () => void monitor.removeListener(event as 'suspend', listener);
  };
  return {
    onSuspend: (listener) => on('suspend', listener),
    onResume: (listener) => on('resume', listener),
    onBattery: (listener) => (battery.add(listener), () => void battery.delete(listener)),
    onAC: (listener) => (ac.add(listener), () => void ac.delete(listener)),
    isOnBattery: () => onBattery,
    close() {
      clearInterval(reader);
      monitor.removeListener('on-battery', changed);
      monitor.removeListener('on-ac', changed);
      monitor.removeListener('resume', changed);
    },
  };
}
