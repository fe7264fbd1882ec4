/** Results of the proxy check per VM: the last answer main gave for a Test, or the error that stopped it. */
import { create } from 'zustand';
import type { DesktopApi } from '../../../shared/api';
import type { AppErrorValue } from '../../../shared/errors';
import type { ProxyCheckResult, ProxyTestInput } from '../../../shared/channels/proxy-check';

export interface CheckEntry {
  running: boolean;
  input: ProxyTestInput;
  result: ProxyCheckResult | undefined;
  error: AppErrorValue | undefined;
  at: string | undefined;
}

export const checkKey = (clusterId: string, vmid: number) => `${clusterId}/${vmid}`;

export interface ProxyCheckState {
  checks: Record<string, CheckEntry>;
  api: DesktopApi | undefined;
  attach(api: DesktopApi): () => void;
  test(input: ProxyTestInput): Promise<void>;
}

export const useProxyCheck = create<ProxyCheckState>((set, get) => ({
  checks: {},
  api: undefined,

  attach(api) {
    set({ api });
    return () => set({ api: undefined });
  },

  async test(input) {
    const key = checkKey(input.clusterId, input.vmid);
    const put = (entry: Partial<CheckEntry>) =>
      set((s) => ({
        checks: {
          ...s.checks,
          [key]: { ...(s.checks[key] ?? { result: undefined, error: undefined, at: undefined }), input, running: false, ...entry },
        },
      }));
    const api = get().api;
    if (!api) {
      put({
        error: { kind: 'transient', message: 'The window is not connected to Egress Desk yet.', hint: 'Wait a moment, then test again.' },
      });
      return;
    }
    put({ running: true, error: undefined });
    const answer = await api.request['proxies.test'](input);
    put(
      answer.ok
        ? { result: answer.value, error: undefined, at: new Date().toISOString() }
        : { result: undefined, error: answer.error, at: new Date().toISOString() },
    );
  },
}));
