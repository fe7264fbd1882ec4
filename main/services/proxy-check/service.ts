/**
 * `proxies.test`: finds the proxy's address in the inventory, then runs the
 * check. A VM that is not running or has no address yet cannot be checked;
 * that is an error with a hint, not a failed check. The URL fetched is the
 * request's own, else the app's setting (read at each check, so a change
 * applies to the next Test), else the built-in default.
 *
 * The simulated demo cluster's guests report made-up addresses on a private
 * range (192.168.x from the VMID): nothing real is there, and dialling one
 * would send packets onto whatever network the user is on. A demo guest's
 * address is never dialled: the demo's `demoRoute` names the loopback proxy
 * the app runs in its place (127.0.0.1, a port the OS chose) and the demo's
 * own echo URL to fetch through it, and the check connects there while its
 * result names the guest's address and port. Without a route, a
 * non-loopback address is answered as a failed check, in words, before any
 * socket is opened.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { ProxyCheckResult, ProxyTestInput } from '../../../shared/channels/proxy-check';
import type { VmRow } from '../../../shared/channels/inventory';
import { DEFAULT_PROXY_CHECK_URL, proxyCheckUrlProblem } from '../../../shared/domain/proxy-check-url';
import { AppError } from '../../errors/app-error';
import type { Logger } from '../../log/logger';
import { checkProxy } from './check';
import { connectProblem } from './classify';
import type { ProxyCredentialLookup, ProxyCredentials } from '../../ports/proxy-credentials';

/** Where the check goes for a demo guest's proxy, from the demo (main/services/demo/demo-proxies.ts). */
export type DemoRoute =
  /** A loopback proxy listens for the guest's port: connect to host:port, fetch targetUrl through it. */
  | { kind: 'listening'; host: string; port: number; targetUrl: string; note: string }
  /** Nothing listens on that port of that guest: answered as a refused connection, no socket opened. */
  | { kind: 'closed'; targetUrl: string; note: string };

export interface ProxyCheckOptions {
  /** The inventory's row for the VM, if listed. */
  lookup(clusterId: string, vmid: number): VmRow | undefined;
  logger: Logger;
  /**
   * Fetched through the proxy when the request names no URL; it must answer
   * with the caller's address. A function is read at every check (the app's
   * setting); a value that is unset or not a valid check URL falls back to the built-in default.
   */
  defaultTargetUrl?: string | (() => string | undefined);
  /** For the whole check, every step included; default 10 s. */
  timeoutMs?: number;
  /** True for the built-in simulated cluster: its guests' addresses are not dialled (loopback ones excepted). */
  isDemo?(clusterId: string): boolean;
  /** For the demo cluster: the loopback proxy standing in for the guest's port; undefined when the demo runs none. */
  demoRoute?(clusterId: string, vmid: number, port: number): Promise<DemoRoute | undefined>;
  /** Issue 24: the proxy's credentials, sent by every check (Test and the scheduled ones); default: none. */
  credentials?: ProxyCredentialLookup;
}

export const DEMO_TEST_MESSAGE =
  'This is the simulated demo cluster: its proxies are not real machines, so Test does not connect anywhere.';
export const DEMO_TEST_HINT = 'Connect a real cluster to test a proxy.';

/** 127.0.0.0/8, ::1 (also as ::ffff:127.x) or localhost: an address that never leaves the machine. */
export function isLoopbackAddress(address: string): boolean {
  let a = address.trim().toLowerCase();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  if (a === 'localhost') return true;
  if (a.startsWith('::ffff:') && isIPv4(a.slice(7))) a = a.slice(7);
  if (isIPv4(a)) return a.split('.')[0] === '127';
  return isIPv6(a) && (a === '::1' || a === '0:0:0:0:0:0:0:1');
}

export const DEFAULT_TARGET_URL = DEFAULT_PROXY_CHECK_URL;

export interface ProxyCheckService {
  /**
   * `quiet`: logged at debug (the scheduled checks: one line per proxy per interval would crowd the log).
   * `credentials`: sent instead of the kept ones (a credentials rotate's check of its new set, issue 24).
   * `target`: fetch this URL (issue 24, a target) instead of the echo, the demo's stand-in included.
   */
  test(
    input: ProxyTestInput,
    signal?: AbortSignal,
    how?: { quiet?: boolean; credentials?: ProxyCredentials; target?: string },
  ): Promise<ProxyCheckResult>;
}

export function createProxyCheckService(options: ProxyCheckOptions): ProxyCheckService {
  const log = options.logger.child({ service: 'proxy-check' });
  const configuredUrl = (): string => {
    const set = typeof options.defaultTargetUrl === 'function' ? options.defaultTargetUrl() : options.defaultTargetUrl;
    const url = set?.trim();
    if (url && proxyCheckUrlProblem(url) === undefined) return url;
    if (url) log.warn('proxy check URL setting is not a usable URL; using the default', { default: DEFAULT_PROXY_CHECK_URL });
    return DEFAULT_PROXY_CHECK_URL;
  };
  return {
    async test(input, signal, how) {
      const row = options.lookup(input.clusterId, input.vmid);
      if (!row)
        throw new AppError(
          'not-found',
          `VM ${input.vmid} is not in the inventory of this cluster.`,
          'Refresh the inventory; the VM may have been deleted.',
        );
      if (row.status !== 'running')
        throw new AppError(
          'permanent',
          `VM ${input.vmid} is not running (${row.state}), so its proxy cannot answer.`,
          'Start the VM, wait for its address, then check again.',
        );
      if (!row.address)
        throw new AppError(
          'transient',
          `VM ${input.vmid} has no address yet: its guest agent has not reported one.`,
          'Wait a minute after start for the agent to report the address, then check again.',
        );
      const credentials = how?.credentials ?? (await options.credentials?.credentialsOf(input.clusterId, input.vmid));
      const demo = options.isDemo?.(input.clusterId) ?? false;
      const route = demo ? await options.demoRoute?.(input.clusterId, input.vmid, input.port) : undefined;
      if (route) return demoCheck(row.address, route);
      const targetUrl = how?.target ?? input.targetUrl ?? configuredUrl();
      if (demo && !isLoopbackAddress(row.address)) {
        log.info('proxy check not run: the demo cluster is simulated', { cluster: input.clusterId, vmid: input.vmid });
        return {
          reachable: false,
          address: row.address,
          port: input.port,
          protocol: input.protocol,
          targetUrl,
          problem: { kind: 'permanent', stage: 'connect', message: DEMO_TEST_MESSAGE, hint: DEMO_TEST_HINT },
        };
      }
      return logged(
        await checkProxy({
          host: row.address,
          port: input.port,
          protocol: input.protocol,
          targetUrl,
          timeoutMs: options.timeoutMs,
          signal,
          credentials,
        }),
      );

      /** The demo's guest through its loopback stand-in, against the demo's echo (the configured URL is not reachable from it). */
      async function demoCheck(address: string, route: DemoRoute): Promise<ProxyCheckResult> {
        const where = `${isIPv6(address) ? `[${address}]` : address}:${input.port}`;
        // The product guard stands whatever the route says: for the demo, only loopback is ever dialled.
        if (route.kind === 'listening' && !isLoopbackAddress(route.host))
          return {
            reachable: false,
            address,
            port: input.port,
            protocol: input.protocol,
            targetUrl: route.targetUrl,
            problem: { kind: 'permanent', stage: 'connect', message: DEMO_TEST_MESSAGE, hint: DEMO_TEST_HINT },
          };
        if (route.kind === 'closed') {
          const refused = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
          return logged({
            reachable: false,
            address,
            port: input.port,
            protocol: input.protocol,
            targetUrl: route.targetUrl,
            note: route.note,
            problem: connectProblem(refused, where),
          });
        }
        const result = await checkProxy({
          host: route.host,
          port: route.port,
          protocol: input.protocol,
          targetUrl: how?.target ?? route.targetUrl,
          timeoutMs: options.timeoutMs,
          signal,
          shownAs: { host: address, port: input.port },
          credentials,
        });
        return logged({ ...result, note: route.note });
      }

      function logged(result: ProxyCheckResult): ProxyCheckResult {
        log[how?.quiet ? 'debug' : 'info']('proxy checked', {
          cluster: input.clusterId,
          vmid: input.vmid,
          protocol: input.protocol,
          reachable: result.reachable,
          latencyMs: result.latencyMs,
          stage: result.problem?.stage,
          credentials: credentials !== undefined,
          ...(result.note ? { note: result.note } : {}),
        });
        return result;
      }
    },
  };
}
