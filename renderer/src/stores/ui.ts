/** View selection and theme: pure presentation state, kept in the renderer. */
import { create } from 'zustand';

export const views = [
  { id: 'overview', label: 'Overview' },
  { id: 'nodes', label: 'Nodes' },
  { id: 'templates', label: 'Templates' },
  { id: 'proxies', label: 'Proxies' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'cleanup', label: 'Cleanup' },
  { id: 'settings', label: 'Settings' },
] as const;
export type ViewId = (typeof views)[number]['id'];
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

export interface UiState {
  view: ViewId;
  theme: ThemeChoice;
  setView(view: ViewId): void;
  setTheme(theme: ThemeChoice): void;
}

export const useUi = create<UiState>((set) => ({
  view: 'overview',
  theme: storedTheme(),
  setView: (view) => set({ view }),
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
