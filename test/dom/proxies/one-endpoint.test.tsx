/**
 * Issue 23 item 5: one port and protocol per proxy. The drawer's address,
 * its copy button and Test start from the endpoint main answers for the
 * proxy (checks.history: what the scheduled checks use), never from a port
 * of their own: a tinyproxy proxy checked on 8888 shows and tests 8888.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckHistory } from '../../../shared/channels/checks';
import type { VmRow } from '../../../shared/channels/inventory';
import { useChecks } from '../../../renderer/src/stores/checks';
import { useProxyCheck } from '../../../renderer/src/stores/proxy-check';
import { ProxyDrawer } from '../../../renderer/src/views/proxies/ProxyDrawer';
import type { ProxyRow } from '../../../renderer/src/views/proxies/rows';
import { createStubApi, type StubApi } from '../../support/stub-api';
import { vm } from './data';

const rowOf = (v: VmRow): ProxyRow => ({ ...v, key: `${v.clusterId}/${v.vmid}`, clusterName: 'Demo cluster', haystack: '' });
const history = (endpoint: CheckHistory['endpoint']): CheckHistory => ({ checks: [], enabled: true, endpoint, intervalMinutes: 5 });

let stub: StubApi;
beforeEach(() => {
  stub = createStubApi();
  useChecks.setState({ api: stub.api, latest: {}, loadedClusters: {}, histories: {} });
  useProxyCheck.setState({ api: stub.api, checks: {} });
});
afterEach(cleanup);

describe('one endpoint per proxy in the drawer', () => {
  for (const endpoint of [
    { protocol: 'http', port: 8888 },
    { protocol: 'socks5', port: 1080 },
  ] as const) {
    it(`shows, copies and tests ${endpoint.protocol} on ${endpoint.port}, the port the scheduled checks use`, async () => {
      stub.answer('checks.history', () => ({ ok: true, value: history(endpoint) }));
      stub.answer('proxies.test', () => ({ ok: false, error: { kind: 'transient', message: 'stub', hint: 'stub' } }));
      await act(async () => render(<ProxyDrawer row={rowOf(vm(101))} onClose={() => undefined} />));
      const test = screen.getByRole('region', { name: 'Proxy test' });
      // A SOCKS5 proxy's URL asks the client to resolve names at the proxy (shared/domain/proxy-url.ts).
      const url = `${endpoint.protocol === 'socks5' ? 'socks5h' : 'http'}://10.0.0.101:${endpoint.port}`;
      expect(within(test).getByText(url)).toBeTruthy();
      expect(within(test).queryByText(/:3128/)).toBeNull();
      expect((within(test).getByRole('textbox', { name: 'Port' }) as HTMLInputElement).value).toBe(String(endpoint.port));
      await act(async () => fireEvent.click(within(test).getByRole('button', { name: 'Test' })));
      expect(stub.calls.find(([c]) => c === 'proxies.test')?.[1]).toMatchObject({ protocol: endpoint.protocol, port: endpoint.port });
    });
  }
});
