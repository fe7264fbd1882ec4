/**
 * Issue 24: the network fields of Create (and Reconfigure) as the user types
 * them, turned into the request's ProxyNetwork and checked with the one rule
 * main also runs (shared/domain/proxy-network.ts networkProblems), so each
 * field shows main's own words before anything is sent. Empty fields mean
 * "the profile's default"; nothing is judged here that main does not judge.
 */
import { useEffect, useState } from 'react';
import type { NodeBridge, NodeBridges } from '../../../../shared/channels/network';
import type { AppErrorValue } from '../../../../shared/errors';
import { networkProblems, type NetworkField, type ProxyNetwork } from '../../../../shared/domain/proxy-network';
import { useTasks } from '../../stores/tasks';

export interface NetworkDraft {
  /** Empty: the profile's bridge (else the template's). */
  bridge: string;
  /** Empty: the profile's tag (else the template's); `none`: no tag. */
  vlan: string;
  mode: 'dhcp' | 'static';
  ipv4: string;
  gateway4: string;
  ipv6: string;
  gateway6: string;
  /** Name servers, separated by commas or spaces. */
  dns: string;
}

export const emptyNetworkDraft: NetworkDraft = {
  bridge: '',
  vlan: '',
  mode: 'dhcp',
  ipv4: '',
  gateway4: '',
  ipv6: '',
  gateway6: '',
  dns: '',
};

export type NetworkDraftProblems = Partial<Record<NetworkField, string>>;

export interface NetworkDraftCheck {
  /** What to send (undefined: the profile's defaults, DHCP). */
  network: ProxyNetwork | undefined;
  problems: NetworkDraftProblems;
}

/** The VLAN field's own refusal: a tag is a whole number (the range is the shared rule's). */
function vlanOf(text: string): { tag?: number | null; problem?: string } {
  const t = text.trim().toLowerCase();
  if (t === '') return {};
  if (t === 'none') return { tag: null };
  if (!/^-?\d+$/.test(t))
    return {
      problem: `The VLAN tag "${text}" is not a number: give a tag from 1 to 4094, "none" for no tag, or leave it empty for the profile's.`,
    };
  return { tag: Number(t) };
}

/** The draft as the request's network, with the shared rule's words; `bridges` are the node's when known. */
export function checkNetworkDraft(d: NetworkDraft, bridges?: readonly string[], nodeName?: string): NetworkDraftCheck {
  const problems: NetworkDraftProblems = {};
  const vlan = vlanOf(d.vlan);
  if (vlan.problem) problems.vlanTag = vlan.problem;
  const network: ProxyNetwork = {};
  if (d.bridge !== '') network.bridge = d.bridge;
  if (vlan.tag !== undefined) network.vlanTag = vlan.tag;
  if (d.mode === 'static') {
    if (d.ipv4.trim() === '' && d.ipv6.trim() === '')
      problems['ipv4.address'] = 'Give a static IPv4 or IPv6 address with its prefix length, or choose DHCP.';
    if (d.ipv4.trim() !== '') network.ipv4 = { address: d.ipv4.trim(), ...(d.gateway4.trim() ? { gateway: d.gateway4.trim() } : {}) };
    if (d.ipv6.trim() !== '') network.ipv6 = { address: d.ipv6.trim(), ...(d.gateway6.trim() ? { gateway: d.gateway6.trim() } : {}) };
    const dns = d.dns.split(/[\s,]+/).filter((s) => s !== '');
    if (dns.length) network.dns = dns;
  }
  for (const p of networkProblems(network, bridges, nodeName)) problems[p.field] ??= p.message;
  const empty = Object.keys(network).length === 0;
  return { network: empty ? undefined : network, problems };
}

/** What the fields show (NetworkFields.tsx). */
export interface NetworkFieldsState {
  draft: NetworkDraft;
  problems: NetworkDraftProblems;
  read: BridgesRead;
  /** What the bridge list is for: "pv1-1", or "every node Automatic may pick". */
  where: string;
}

export type BridgesRead =
  { state: 'idle' } | { state: 'reading' } | { state: 'error'; error: AppErrorValue } | { state: 'ready'; lists: NodeBridges[] };

/** Reads the bridges of each of `nodes` (the chosen node, or every node Automatic may pick); a newer question wins. */
export function useNodeBridges(clusterId: string | undefined, nodes: readonly string[]): BridgesRead {
  const api = useTasks((s) => s.api);
  const key = clusterId && nodes.length ? `${clusterId}\n${nodes.join(',')}` : '';
  const [read, setRead] = useState<{ key: string; read: BridgesRead }>({ key: '', read: { state: 'idle' } });
  useEffect(() => {
    if (!api || !key || !clusterId) return;
    let current = true;
    setRead({ key, read: { state: 'reading' } });
    void Promise.all(nodes.map((node) => api.request['network.bridges']({ clusterId, node }))).then((answers) => {
      if (!current) return;
      const failed = answers.find((a) => !a.ok);
      setRead({
        key,
        read:
          failed && !failed.ok
            ? { state: 'error', error: failed.error }
            : { state: 'ready', lists: answers.flatMap((a) => (a.ok ? [a.value] : [])) },
      });
    });
    return () => {
      current = false;
    };
  }, [api, key]);
  if (!key) return { state: 'idle' };
  return read.key === key ? read.read : { state: 'reading' };
}

/** The bridges every read node has (Automatic may pick any of them), in the first node's order. */
export function commonBridges(read: BridgesRead): NodeBridge[] | undefined {
  if (read.state !== 'ready' || read.lists.length === 0) return undefined;
  const [first, ...rest] = read.lists;
  return first!.bridges.filter((b) => rest.every((l) => l.bridges.some((o) => o.name === b.name)));
}

/** A bridge's option label: `vmbr0 (VLAN-aware)`, `egress2 (SDN vnet: VPN uplink)`. */
export function bridgeLabel(b: NodeBridge): string {
  const kind = b.kind === 'vnet' ? 'SDN vnet' : b.kind === 'ovs-bridge' ? 'OVS bridge' : undefined;
  const bits = [
    kind,
    b.vlanAware && b.kind !== 'ovs-bridge' ? 'VLAN-aware' : undefined,
    b.comment,
    b.active ? undefined : 'inactive',
  ].filter(Boolean);
  return bits.length ? `${b.name} (${bits.join(', ')})` : b.name;
}

/**
 * The network part of a form: its draft, the bridges of `node` (or of every one of `automaticNodes` when no node is
 * chosen), the check, and main's refusal of a network field (`sendError.field` `network.<field>`) shown at its field.
 */
export function useNetworkChoice(
  clusterId: string | undefined,
  node: string | undefined,
  automaticNodes: readonly string[] | undefined,
  sendError: AppErrorValue | undefined,
  where = 'every node Automatic may pick',
) {
  const [draft, setDraft] = useState<NetworkDraft>(emptyNetworkDraft);
  const read = useNodeBridges(clusterId, node ? [node] : (automaticNodes ?? []));
  const check = checkNetworkDraft(
    draft,
    commonBridges(read)?.map((b) => b.name),
    node,
  );
  const field = sendError?.field;
  if (field?.startsWith('network.')) check.problems[field.slice('network.'.length) as NetworkField] ??= sendError!.message;
  const fields: NetworkFieldsState = {
    draft,
    problems: check.problems,
    read,
    where: node ?? where,
  };
  return {
    check,
    ok: Object.keys(check.problems).length === 0,
    fields,
    update: (patch: Partial<NetworkDraft>) => setDraft((d) => ({ ...d, ...patch })),
  };
}
