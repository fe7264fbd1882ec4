/** A request from another view to show one proxy in the Proxies view: selected, with its drawer open. */
import { create } from 'zustand';

/** A proxy's row key, `<clusterId>/<vmid>`: the Proxies table keys its rows by it (views/proxies/rows.ts). */
export const rowKey = (clusterId: string, vmid: number) => `${clusterId}/${vmid}`;

export interface ProxyFocusState {
  /** The row key (`<clusterId>/<vmid>`) the Proxies view should select and open, until it has. */
  key: string | undefined;
  focus(clusterId: string, vmid: number): void;
  clear(): void;
}

export const useProxyFocus = create<ProxyFocusState>((set) => ({
  key: undefined,
  focus: (clusterId, vmid) => set({ key: rowKey(clusterId, vmid) }),
  clear: () => set({ key: undefined }),
}));
