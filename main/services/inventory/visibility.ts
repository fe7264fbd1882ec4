/**
 * Whether the admin can see a window: the inventory polls every few seconds
 * while they can, and rarely while every window is hidden or minimised. The
 * Electron shell implements this from its windows' events
 * (main/electron/window-visibility.ts); browser mode and tests set it by hand.
 */
export type Visibility = 'visible' | 'hidden';

export interface WindowVisibility {
  current(): Visibility;
  subscribe(listener: (visibility: Visibility) => void): () => void;
}

/** A visibility set from outside: the Node implementation. */
export class ManualVisibility implements WindowVisibility {
  private readonly listeners = new Set<(visibility: Visibility) => void>();

  constructor(private value: Visibility = 'visible') {}

  current(): Visibility {
    return this.value;
  }

  set(visibility: Visibility): void {
    if (visibility === this.value) return;
    this.value = visibility;
    for (const listener of this.listeners) listener(visibility);
  }

  subscribe(listener: (visibility: Visibility) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
