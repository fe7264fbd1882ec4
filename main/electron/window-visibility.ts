/**
 * The inventory's window-visibility port, fed by the Electron window: the
 * app polls often while someone looks at it and slowly when it is hidden
 * or minimised.
 */
import type { BrowserWindow } from 'electron';
import type { Visibility, WindowVisibility } from '../services/inventory/visibility';

export class ElectronWindowVisibility implements WindowVisibility {
  private state: Visibility = 'visible';
  private readonly listeners = new Set<(v: Visibility) => void>();

  current(): Visibility {
    return this.state;
  }

  subscribe(listener: (v: Visibility) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  attach(window: BrowserWindow): void {
    const update = () => this.set(window.isVisible() && !window.isMinimized() ? 'visible' : 'hidden');
    for (const event of ['show', 'hide', 'minimize', 'restore'] as const) window.on(event as 'show', update);
    update();
  }

  private set(next: Visibility): void {
    if (next === this.state) return;
    this.state = next;
    for (const l of this.listeners) l(next);
  }
}
