/** View selection and theme: pure presentation state, kept in the renderer. */
import { create } from 'zustand';
import { leaveAllowed } from './unsaved';
import type { ViewId } from './views';
import type { VmRowState } from '../../../shared/channels/inventory';

export { views, type ViewId } from './views';
export type ThemeChoice = 'system' | 'light' | 'dark';

const THEME_KEY = 'egress-desk.theme';

function storedTheme(): ThemeChoice {
  try {
    const t = globalThis.localStorage?.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' || t === 'system' ? t : 'system';
  } catch {
    return 'system';
  }
}

/** What the Proxies view should filter by when opened from a link (the Overview's counts). */
export interface ProxiesFilterRequest {
  clusterId?: string;
  state?: VmRowState;
  node?: string;
}

/** The node the Nodes view should open when navigated to from a link (the Overview's node rows). */
export interface NodeRequest {
  clusterId: string;
  node: string;
}

/** The cluster the Templates view should show when navigated to from a link (the search). */
export interface TemplatesRequest {
  clusterId: string;
}

export interface UiState {
  view: ViewId;
  theme: ThemeChoice;
  /** Set by `openProxies`, taken (and cleared) by the Proxies view. */
  proxiesFilter: ProxiesFilterRequest | undefined;
  /** Set by `openNode`, taken (and cleared) by the Nodes view. */
  nodeRequest: NodeRequest | undefined;
  /** Set by `openTemplates`, taken (and cleared) by the Templates view. */
  templatesRequest: TemplatesRequest | undefined;
  setView(view: ViewId): void;
  setTheme(theme: ThemeChoice): void;
  /** Shows the Proxies view filtered as asked. */
  openProxies(filter: ProxiesFilterRequest): void;
  /** Shows one node's page in the Nodes view. */
  openNode(request: NodeRequest): void;
  /** Shows one cluster's catalogue in the Templates view. */
  openTemplates(request: TemplatesRequest): void;
  /** Clear a request once its view has applied it. */
  clearProxiesFilter(): void;
  clearNodeRequest(): void;
  clearTemplatesRequest(): void;
}

export const useUi = create<UiState>((set, get) => ({
  view: 'overview',
  theme: storedTheme(),
  proxiesFilter: undefined,
  nodeRequest: undefined,
  templatesRequest: undefined,
  // Asks first while a section holds unsaved edits (stores/unsaved.ts).
  setView: (view) => {
    if (leaveAllowed(view, get().view)) set({ view });
  },
  openProxies: (proxiesFilter) => set({ view: 'proxies', proxiesFilter }),
  openNode: (nodeRequest) => set({ view: 'nodes', nodeRequest }),
  openTemplates: (templatesRequest) => set({ view: 'templates', templatesRequest }),
  clearProxiesFilter: () => set({ proxiesFilter: undefined }),
  clearNodeRequest: () => set({ nodeRequest: undefined }),
  clearTemplatesRequest: () => set({ templatesRequest: undefined }),
  setTheme: (theme) => {
    try {
      globalThis.localStorage?.setItem(THEME_KEY, theme);
    } catch {
      // storage may be unavailable (private window); the choice still holds for this session
    }
    set({ theme });
  },
}));

/** The theme actually drawn: `system` follows the OS setting. */
export function resolveTheme(choice: ThemeChoice, prefersDark: boolean): 'light' | 'dark' {
  return choice === 'system' ? (prefersDark ? 'dark' : 'light') : choice;
}
