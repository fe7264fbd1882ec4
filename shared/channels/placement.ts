/**
 * Placement (issue 11): for an image of a cluster's catalogue, whether a
 * create can land on each node, how (a clone there, a clone with target,
 * or a clone on the template's node and then a move), and why not. Read-only.
 */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';

export const NodeLanding = z
  .object({
    node: z.string(),
    /** A create can land here. */
    ok: z.boolean(),
    /** The template a create here clones (the image's per-node one, else its default). */
    templateVmid: z.number(),
    /** here: the template is on this node; target: a clone with target; migrate: a clone on cloneNode, then a move. */
    way: z.enum(['here', 'target', 'migrate']).optional(),
    cloneNode: z.string().optional(),
    /** Why a create cannot land here, in plain words. */
    reason: z.string().optional(),
    /** The ways out. */
    hint: z.string().optional(),
    /** For a move: "clone on pv1-2, then move to pv1-1: about N s longer (…)". */
    note: z.string().optional(),
    extraSeconds: z.number().optional(),
  })
  .strict();
export type NodeLanding = z.infer<typeof NodeLanding>;

export const placementChannels = defineChannels({
  /** Each node of the cluster's profile, in profile order, judged for a create of `template` (a catalogue name). */
  'placement.landing': {
    input: z.object({ clusterId: boundedText(200), template: boundedText(64) }).strict(),
    output: z.object({ nodes: z.array(NodeLanding) }).strict(),
  },
});

export const placementEvents = defineEvents({});
