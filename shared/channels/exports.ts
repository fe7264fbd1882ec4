/**
 * Issue 24 §3, handing proxies to their clients: a proxy's URL to copy, and
 * the selection (or every proxy with a tag) exported as a list, JSON, CSV, a
 * PAC file, FoxyProxy's and SwitchyOmega's import files, a proxychains.conf
 * or shell lines. Main writes every format (main/services/exports/); the
 * renderer shows the text, copies it, or asks main to save it. Credentials
 * are in a text only when the request asks and the user has confirmed the
 * warning once (AppSettings.exportCredentialsAcknowledged).
 */
import { z } from 'zod';
import { boundedText, defineChannels } from '../define';

const clusterId = boundedText(200);
const vmid = z.number().int().min(100).max(999_999_999);

export const ExportFormat = z.enum(['list', 'json', 'csv', 'pac', 'foxyproxy', 'switchyomega', 'proxychains', 'shell']);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** What each format is called where a person picks one. */
export const exportFormatLabel: Record<ExportFormat, string> = {
  list: 'Plain list (host:port)',
  json: 'JSON',
  csv: 'CSV (spreadsheet)',
  pac: 'PAC file (browsers, system proxy settings)',
  foxyproxy: 'FoxyProxy import (JSON)',
  switchyomega: 'SwitchyOmega backup (restore from file)',
  proxychains: 'proxychains4 proxychains.conf',
  shell: 'Shell lines (HTTPS_PROXY, …)',
};

/** pve-common's $PVE_TAG_RE (shared/domain/vm-notes.ts), the tags Proxmox keeps. */
const Tag = boundedText(128).regex(
  /^[a-z0-9_][a-z0-9_\-+.]*$/i,
  'A tag is a letter, digit or "_", then letters, digits, "_", "-", "+" or "."',
);

export const ExportScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('selection'), proxies: z.array(z.object({ clusterId, vmid }).strict()).min(1).max(5000) }).strict(),
  /** Every VM with the tag that is a proxy (marked), in every cluster: a foreign VM only when it is selected. */
  z.object({ kind: z.literal('tag'), tag: Tag }).strict(),
]);
export type ExportScope = z.infer<typeof ExportScope>;

/** A host pattern a PAC file, FoxyProxy and SwitchyOmega match the host against: a name or address, `*` and `?` as wildcards. */
export const HostPattern = z
  .string()
  .trim()
  .min(1, 'A host pattern cannot be empty')
  .max(253, 'A host pattern is at most 253 characters')
  .regex(
    /^[A-Za-z0-9*?][A-Za-z0-9*?.-]*$/,
    'A host pattern is a host name or address with * and ? as wildcards (like *.example.com): letters, digits, ".", "-", "*", "?"',
  );

export const RoutingOptions = z
  .object({
    /** Hosts sent through the proxies; none: every host (local names and loopback stay direct). */
    hosts: z.array(HostPattern).max(200, 'At most 200 host patterns'),
    /** When every proxy fails: connect directly, or fail (nothing leaves outside the proxies). */
    fallback: z.enum(['direct', 'none']),
  })
  .strict();
export type RoutingOptions = z.infer<typeof RoutingOptions>;

export const ExportOptions = z
  .object({
    /** Put each proxy's username and password in the text (only once the warning was confirmed). */
    includeCredentials: z.boolean(),
    /** PAC, FoxyProxy and SwitchyOmega: which hosts go through the proxies, and the fallback. */
    routing: RoutingOptions,
    /** proxychains: each connection through the next proxy (round_robin, chain_len 1), or through all in order (strict). */
    chain: z.enum(['round_robin', 'strict']),
  })
  .strict();
export type ExportOptions = z.infer<typeof ExportOptions>;

export const defaultExportOptions: ExportOptions = {
  includeCredentials: false,
  routing: { hosts: [], fallback: 'direct' },
  chain: 'round_robin',
};

export const ExportInput = z.object({ scope: ExportScope, format: ExportFormat, options: ExportOptions }).strict();
export type ExportInput = z.infer<typeof ExportInput>;

export const ExportResult = z
  .object({
    text: z.string(),
    /** The name a save offers (`proxy.pac`, `proxychains.conf`). */
    fileName: z.string(),
    mediaType: z.string(),
    /** The proxies in the text, by name. */
    included: z.array(z.string()),
    /** The proxies of the scope that are not, and why (no address yet, a VM that is not a proxy). */
    leftOut: z.array(z.object({ name: z.string(), reason: z.string() }).strict()),
    /** What the reader should know about this text (a PAC file carries no credentials; shell lines name one proxy). */
    notes: z.array(z.string()),
    /** True when the text holds at least one password. */
    withCredentials: z.boolean(),
  })
  .strict();
export type ExportResult = z.infer<typeof ExportResult>;

export const exportsChannels = defineChannels({
  /** The export's text, for the preview and Copy. */
  'proxies.export': { input: ExportInput, output: ExportResult },
  /** The same text saved where the user picks (the desktop's save dialog); browser mode downloads the text instead. */
  'proxies.exportSave': {
    input: ExportInput,
    output: z.object({ saved: z.boolean(), path: z.string().optional() }).strict(),
  },
});
