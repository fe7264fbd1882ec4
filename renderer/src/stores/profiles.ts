/**
 * The clusters (profiles) main knows, the profile file's problem if any,
 * and what protects secrets here. Loaded once, then replaced by each
 * `profiles.changed` push. Writes go to main; the list comes back by event.
 */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { ProfilesList, SaveProfileInput } from '../../../shared/channels/profiles';
import type { ProfileSummary } from '../../../shared/domain/profile';
import type { AppErrorValue, Envelope } from '../../../shared/errors';
import { notAttached } from './not-attached';

export interface ProfilesState {
  list: ProfilesList | undefined;
  error: AppErrorValue | undefined;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  reload(): Promise<void>;
  save(input: SaveProfileInput): Promise<Envelope<ProfileSummary>>;
  remove(id: string): Promise<Envelope<{ deleted: boolean }>>;
  exportProfiles(ids?: string[]): Promise<Envelope<{ fileName: string; json: string }>>;
  importProfiles(json: string): Promise<Envelope<{ imported: ProfileSummary[] }>>;
}

export const useProfiles = create<ProfilesState>((set, get) => ({
  list: undefined,
  error: undefined,
  api: undefined,

  attach(api) {
    set({ api });
    const off = api.on['profiles.changed']((list) => set({ list, error: undefined }));
    void get().reload();
    return off;
  },

  async reload() {
    const api = get().api;
    if (!api) return;
    const answer = await api.request['profiles.list']({});
    set(answer.ok ? { list: answer.value, error: undefined } : { error: answer.error });
  },

  save: (input) => get().api?.request['profiles.save'](input) ?? notAttached(),
  remove: (id) => get().api?.request['profiles.delete']({ id }) ?? notAttached(),
  exportProfiles: (ids) => get().api?.request['profiles.export'](ids ? { ids } : {}) ?? notAttached(),
  importProfiles: (json) => get().api?.request['profiles.import']({ json }) ?? notAttached(),
}));

/**
 * The cluster a view or dialog opens on when none was chosen: a real one once connected (the demo
 * is only for a first look), else the demo.
 */
export function preferredCluster<T extends { demo: boolean }>(clusters: readonly T[] | undefined): T | undefined {
  return clusters?.find((c) => !c.demo) ?? clusters?.[0];
}

/** Every cluster, demo first so a first run opens on it. */
export function clustersOf(list: ProfilesList | undefined): ProfileSummary[] {
  return [...(list?.profiles ?? [])].sort((a, b) => Number(b.demo) - Number(a.demo) || a.name.localeCompare(b.name));
}
