/** The proxy check: a request through a running proxy, which tells "the VM has an address" from "the proxy works". */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';
import { ProxyCheckUrl } from '../domain/proxy-check-url';

export const ProxyProtocol = z.enum(['http', 'socks5']);
export type ProxyProtocol = z.infer<typeof ProxyProtocol>;

/** The same rule as the setting: http or https, no credentials, bounded like every text a renderer sends. */
const targetUrl = ProxyCheckUrl;

export const ProxyTestInput = z
  .object({
    clusterId: boundedText(200),
    vmid: z.number().int().min(100).max(999_999_999),
    protocol: ProxyProtocol,
    port: z.number().int().min(1).max(65_535),
    /** The URL fetched through the proxy; it should answer with the caller's address. Default: the app's setting. */
    targetUrl: targetUrl.optional(),
  })
  .strict();
export type ProxyTestInput = z.infer<typeof ProxyTestInput>;

/** Where the check stopped: the TCP connect, the proxy's handshake, or the request to the target. */
export const ProxyCheckStage = z.enum(['connect', 'handshake', 'request']);
export type ProxyCheckStage = z.infer<typeof ProxyCheckStage>;

export const ProxyCheckResult = z
  .object({
    reachable: z.boolean(),
    address: z.string(),
    port: z.number().int(),
    protocol: ProxyProtocol,
    targetUrl: z.string(),
    /** Time to open the TCP connection to the proxy. */
    connectMs: z.number().nonnegative().optional(),
    /** From sending the request to the answer's headers (time to first byte), through the proxy. */
    firstByteMs: z.number().nonnegative().optional(),
    /** Time for the whole request through the proxy, answer included. */
    latencyMs: z.number().nonnegative().optional(),
    /** The HTTP status the target answered. */
    httpStatus: z.number().int().optional(),
    /** The address the target saw the request come from. */
    egressAddress: z.string().optional(),
    /** Something the reader should know about how the check ran (the demo: "demo: checked against the built-in echo"). */
    note: z.string().optional(),
    /** Why it is not reachable. A reachable proxy whose target answers with no address in a known place has no egressAddress. */
    problem: z
      .object({ kind: z.enum(['permanent', 'transient']), stage: ProxyCheckStage, message: z.string(), hint: z.string() })
      .strict()
      .optional(),
  })
  .strict();
export type ProxyCheckResult = z.infer<typeof ProxyCheckResult>;

export const proxyCheckChannels = defineChannels({
  /** Connect to the proxy's port, then fetch the target URL through it. */
  'proxies.test': { input: ProxyTestInput, output: ProxyCheckResult },
});

export const proxyCheckEvents = defineEvents({});
