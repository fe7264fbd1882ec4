/** A request from another view to show one proxy in the Proxies view: selected, with its drawer open. */
import { create } from 'zustand';
import { rowKey } from '../views/proxies/rows';

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
