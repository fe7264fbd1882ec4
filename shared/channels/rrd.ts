/**
 * Channels of Proxmox's own history (issue 15): a VM's or a node's RRD graphs for one timeframe, read from
 * `…/rrddata` when a view opens them and cached in main per timeframe. Values are in plain units.
 */
import { z } from 'zod';
import { boundedText, defineChannels, defineEvents } from '../define';

export const RrdTimeframe = z.enum(['hour', 'day', 'week', 'month', 'year']);
export type RrdTimeframe = z.infer<typeof RrdTimeframe>;
/** AVERAGE (Proxmox's default): each point is the mean of its minutes; MAX: the highest minute. */
export const RrdCf = z.enum(['AVERAGE', 'MAX']);
export type RrdCf = z.infer<typeof RrdCf>;

const clusterId = boundedText(200);
const node = boundedText(64);
/** Proxmox's VMID range (the schema's pve-vmid). */
const vmid = z.number().int().min(100).max(999_999_999);

/** A year at 6 h is 1440 rows; room to spare for a release that answers more. */
const MAX_POINTS = 4000;
/** One value per time; null where Proxmox recorded nothing (the VM was stopped, or did not exist yet). */
const values = z.array(z.number().nullable()).max(MAX_POINTS);

export const RrdSeries = z
  .object({
    target: z.enum(['vm', 'node']),
    timeframe: RrdTimeframe,
    cf: RrdCf,
    /** Seconds between points, as Proxmox answered them. */
    stepSeconds: z.number().int().positive(),
    /** Epoch seconds, ascending: the end of each point's step. */
    times: z.array(z.number()).max(MAX_POINTS),
    /** CPU use as a share of all the VM's or node's cores, 0..1. */
    cpu: values,
    /** Memory in use and the memory size, bytes. */
    mem: values,
    maxmem: values,
    /** Network, bytes per second. */
    netin: values,
    netout: values,
    /** Disk, bytes per second; absent for a node (Proxmox records no disk rates for one). */
    diskread: values.optional(),
    diskwrite: values.optional(),
    /** True when no point holds any value: a new VM Proxmox has not recorded yet, or one never started. */
    empty: z.boolean(),
    /** Why there is nothing to draw, in plain words; set when `empty`. */
    emptyReason: boundedText(400).optional(),
    /** When main read it from Proxmox (the cache may answer an older read). */
    fetchedAt: z.string(),
  })
  .strict();
export type RrdSeries = z.infer<typeof RrdSeries>;

export const rrdChannels = defineChannels({
  /** A VM's CPU, memory, network and disk I/O for one timeframe. */
  'rrd.vm': {
    input: z.object({ clusterId, node, vmid, timeframe: RrdTimeframe, cf: RrdCf.optional() }).strict(),
    output: RrdSeries,
  },
  /** A node's CPU, memory and network for one timeframe. */
  'rrd.node': {
    input: z.object({ clusterId, node, timeframe: RrdTimeframe, cf: RrdCf.optional() }).strict(),
    output: RrdSeries,
  },
});

export const rrdEvents = defineEvents({});
