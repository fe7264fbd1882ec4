/**
 * The desktop's voice when long work ends: a notification and the taskbar
 * progress. The Electron shell implements it (main/electron/notifier.ts);
 * Node and browser mode use the silent or the recording one.
 */
export interface Notifier {
  notify(title: string, body: string): void;
  /** 0..1 while work runs; null clears the bar. */
  progress(fraction: number | null): void;
}

export const silentNotifier: Notifier = { notify: () => undefined, progress: () => undefined };

export function createRecordingNotifier(): Notifier & { notes: { title: string; body: string }[]; fractions: (number | null)[] } {
  const notes: { title: string; body: string }[] = [];
  const fractions: (number | null)[] = [];
  return {
    notes,
    fractions,
    notify: (title, body) => notes.push({ title, body }),
    progress: (fraction) => fractions.push(fraction),
  };
}
