/**
 * The port through which the scheduled checks learn that the computer goes
 * to sleep, wakes, or switches between battery and mains. The Electron shell
 * implements it with `powerMonitor` (main/electron/power-state.ts); browser
 * mode and tests have no such events (`steadyPower`), or a hand-driven one.
 * Each `on…` returns its unsubscribe.
 */
export interface PowerState {
  onSuspend(listener: () => void): () => void;
  onResume(listener: () => void): () => void;
  onBattery(listener: () => void): () => void;
  onAC(listener: () => void): () => void;
  isOnBattery(): boolean;
}

/** No power events: always awake, always on mains. */
export const steadyPower: PowerState = {
  onSuspend: () => () => undefined,
  onResume: () => () => undefined,
  onBattery: () => () => undefined,
  onAC: () => () => undefined,
  isOnBattery: () => false,
};
