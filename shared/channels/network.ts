/**
 * Issue 24: where a proxy can sit on the network. `network.bridges` lists
 * the bridges, OVS bridges and SDN vnets one node has, as Proxmox shows them
 * to the cluster's token (core/provider/operations/bridges.ts), for the
 * Create and Reconfigure forms' bridge choice. Reads only.
 */
import { z } from 'zod';
import { boundedText, defineChannels } from '../define';

export const NodeBridge = z
  .object({
    name: z.string(),
    kind: z.enum(['bridge', 'ovs-bridge', 'vnet']),
    /** A VLAN tag on net0 takes effect (a VLAN-aware Linux bridge, an OVS bridge, a VLAN-aware vnet). */
    vlanAware: z.boolean(),
    active: z.boolean(),
    comment: z.string().optional(),
  })
  .strict();
export type NodeBridge = z.infer<typeof NodeBridge>;

export const NodeBridges = z
  .object({
    node: z.string(),
    bridges: z.array(NodeBridge),
    /** The profile's default bridge, when it sets one. */
    profileBridge: z.string().optional(),
    profileVlanTag: z.number().int().optional(),
    /** Why the list may be short, in words (a token that sees no bridge, the profile's bridge not among them). */
    notes: z.array(z.string()),
  })
  .strict();
export type NodeBridges = z.infer<typeof NodeBridges>;

export const networkChannels = defineChannels({
  /** The bridges of one node of the profile, read now. A node outside the profile is invalid input. */
  'network.bridges': {
    input: z.object({ clusterId: boundedText(200).min(1), node: boundedText(64).min(1) }).strict(),
    output: NodeBridges,
  },
});
