/**
 * App-wide settings held by main (theme, poll intervals, proxy check URL,
 * cleanup grace). The theme is mirrored both ways with the UI store, so the
 * status bar's picker and the Settings view agree and the choice persists.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { ProfileDraft } from '../../../shared/domain/operator-profile';
import type { AppSettings } from '../../../shared/domain/profile';
import type { AppErrorValue, Envelope } from '../../../shared/errors';
import { notAttached } from './not-attached';
import { useUi } from './ui';

/** A providers-config entry taken in (handoff.import's offer, main's draft): the connect wizard opens pre-filled with it. */
export interface WizardSeed {
  provider: string;
  draft: ProfileDraft;
  /** What the entry says that the profile does not take, in main's words. */
  notes: string[];
}

export interface SettingsState {
  settings: AppSettings | undefined;
  error: AppErrorValue | undefined;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  reload(): Promise<void>;
  update(changes: Partial<AppSettings>): Promise<Envelope<AppSettings>>;
  /** Set by "Connect a cluster" anywhere in the app; the Settings view opens the wizard and clears it. */
  connectWizardRequested: boolean;
  /** The entry the requested wizard opens with (Take in manifests… → Make a cluster profile). */
  connectWizardSeed: WizardSeed | undefined;
  openConnectWizard(seed?: WizardSeed): void;
  connectWizardShown(): void;
}

export const useSettings = create<SettingsState>((set, get) => {
  const adopt = (settings: AppSettings) => {
    set({ settings, error: undefined });
    if (useUi.getState().theme !== settings.theme) useUi.getState().setTheme(settings.theme);
  };
  return {
    settings: undefined,
    error: undefined,
    api: undefined,
    connectWizardRequested: false,
    connectWizardSeed: undefined,
    openConnectWizard: (seed) => set({ connectWizardRequested: true, connectWizardSeed: seed }),
    connectWizardShown: () => set({ connectWizardRequested: false, connectWizardSeed: undefined }),

    attach(api) {
      set({ api });
      const offEvent = api.on['settings.changed'](adopt);
      const offTheme = useUi.subscribe((ui, before) => {
        const held = get().settings;
        if (ui.theme !== before.theme && held && held.theme !== ui.theme) void get().update({ theme: ui.theme });
      });
      void get().reload();
      return () => {
        offEvent();
        offTheme();
      };
    },

    async reload() {
      const api = get().api;
      if (!api) return;
      const answer = await api.request['settings.get']({});
      if (answer.ok) adopt(answer.value);
      else set({ error: answer.error });
    },

    async update(changes) {
      const api = get().api;
      if (!api) return notAttached();
      const answer = await api.request['settings.set']({ settings: changes });
      if (answer.ok) adopt(answer.value);
      return answer;
    },
  };
});
