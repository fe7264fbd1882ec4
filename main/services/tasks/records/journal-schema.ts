/**
 * What a journal line is: the zod schema every replayed line, and every task
 * the lines build, is checked against, and the parse of one line into the
 * fields it sets and clears (or the task it drops).
 */
import { ProxyNetwork } from '../../../../shared/domain/proxy-network';
import { z } from 'zod';
import { bulkParentKinds, SeedRef, TaskView } from '../../../../shared/channels/tasks';
import { BuildRequestRecord, BuildResumeRecord } from '../../../../shared/channels/templates';
import { SeedStamp } from './proxy-records';
import type { TaskRecord } from './task-record';

/** The protocol and port the task's user-data makes the proxy listen on (shared/domain/proxy-endpoint.ts). */
const endpoint = z.object({ protocol: z.enum(['http', 'socks5']), port: z.number() }).optional();

const oneVm = { clusterId: z.string(), vmid: z.number(), name: z.string(), uid: z.string() };

const TaskInputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('create-proxy'),
    uid: z.string(),
    name: z.string(),
    node: z.string(),
    template: z.string(),
    machineType: z.string(),
    sealedCloudInit: z.string().optional(),
    endpoint,
    network: ProxyNetwork.optional(),
  }),
  z.object({
    kind: z.literal('delete-proxy'),
    providerId: z.string(),
    expect: z.union([z.object({ uid: z.string() }), z.literal('absent')]).optional(),
  }),
  z.object({ kind: z.literal('clean-up'), ofTaskId: z.string(), uid: z.string(), name: z.string(), vmid: z.number().optional() }),
  z.object({ kind: z.literal('clean-seeds'), seeds: z.array(SeedRef), dryRun: z.boolean(), graceMinutes: z.number() }),
  z.object({ kind: z.enum(['doctor', ...bulkParentKinds]) }),
  z.object({
    kind: z.literal('migrate-proxy'),
    ...oneVm,
    to: z.string(),
    from: z.string().optional(),
    sealedCloudInit: z.string().optional(),
  }),
  z.object({
    kind: z.literal('reconfigure-proxy'),
    ...oneVm,
    cores: z.number().optional(),
    memoryMiB: z.number().optional(),
    diskGiB: z.number().optional(),
    sealedCloudInit: z.string().optional(),
    instanceId: z.string().optional(),
    reboot: z.boolean().optional(),
    endpoint,
    machineType: z.string().optional(),
    network: ProxyNetwork.pick({ bridge: true, vlanTag: true }).optional(),
  }),
  z.object({
    kind: z.literal('recreate-proxy'),
    ...oneVm,
    newUid: z.string(),
    template: z.string(),
    machineType: z.string(),
    node: z.string().optional(),
    sealedCloudInit: z.string().optional(),
    endpoint,
    network: ProxyNetwork.optional(),
  }),
  z.object({ kind: z.literal('rotate-credentials'), ...oneVm, instanceId: z.string(), sealedCloudInit: z.string() }),
  z.object({
    kind: z.enum(['release-proxy', 'reclaim-proxy']),
    clusterId: z.string(),
    vmid: z.number(),
    name: z.string(),
    uid: z.string(),
    seedOn: z.string().optional(),
    releasedSeed: SeedStamp.optional(),
  }),
  z.object({
    kind: z.enum(['start-proxy', 'shutdown-proxy', 'stop-proxy', 'reboot-proxy']),
    clusterId: z.string(),
    vmid: z.number(),
    name: z.string(),
    uid: z.string(),
    timeoutSeconds: z.number().optional(),
    timedOut: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('build-template'),
    request: BuildRequestRecord,
    resume: BuildResumeRecord.optional(),
    leftovers: z.array(z.string()).optional(),
  }),
  z.object({ kind: z.literal('clean-up-build'), ofTaskId: z.string(), request: BuildRequestRecord, resume: BuildResumeRecord }),
]);

/** A whole task as the journal keeps it: the view without its actions, plus the request. Unknown keys are dropped. */
export const TaskRecordSchema = z.object({ ...TaskView.omit({ actions: true }).shape, input: TaskInputSchema });

// The schema and the type must not drift apart (a field the schema lacks would be dropped on replay): this fails to
// compile when they do, down to each input kind's optional fields.
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? ([B, keyof B] extends [A, keyof A] ? true : false) : false;
type InputOf<R, K> = Extract<R extends { input: infer I } ? I : never, { kind: K }>;
type Journalled = z.infer<typeof TaskRecordSchema>;
const schemaMatchesRecord: {
  [K in TaskRecord['input']['kind']]: Same<InputOf<Journalled, K>, InputOf<TaskRecord, K>>;
} & { record: Same<Omit<Journalled, 'input'>, Omit<TaskRecord, 'input'>> } = {
  'create-proxy': true,
  'create-proxies': true,
  'delete-proxy': true,
  'clean-up': true,
  'clean-seeds': true,
  doctor: true,
  'build-template': true,
  'clean-up-build': true,
  'start-proxy': true,
  'shutdown-proxy': true,
  'stop-proxy': true,
  'reboot-proxy': true,
  'power-proxies': true,
  'delete-proxies': true,
  'migrate-proxy': true,
  'reconfigure-proxy': true,
  'recreate-proxy': true,
  'migrate-proxies': true,
  'reconfigure-proxies': true,
  'recreate-proxies': true,
  'rotate-credentials': true,
  'release-proxy': true,
  'reclaim-proxy': true,
  record: true,
};
void schemaMatchesRecord;

/** One line's fields: any part of a task, with `null` for a field it clears. */
const FieldsSchema = TaskRecordSchema.partial().extend({ id: z.string().min(1) });
const DropSchema = z.object({ id: z.string().min(1), drop: z.literal(true) }).strict();
const clearable = new Set(
  Object.entries(TaskRecordSchema.shape)
    .filter(([, schema]) => schema.safeParse(undefined).success)
    .map(([key]) => key),
);

type Parsed = { id: string; drop: true } | { id: string; set: Record<string, unknown>; cleared: string[] };

/** A line as the journal writes it, or undefined for anything else. */
export function parseLine(raw: Buffer): Parsed | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const drop = DropSchema.safeParse(value);
  if (drop.success) return drop.data;
  const set: Record<string, unknown> = {};
  const cleared: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === null) cleared.push(key);
    else set[key] = key === 'input' && typeof v === 'object' && !Array.isArray(v) ? withoutNulls(v as Record<string, unknown>) : v;
  }
  if (cleared.some((key) => !clearable.has(key))) return undefined;
  const fields = FieldsSchema.safeParse(set);
  if (!fields.success) return undefined;
  return { id: fields.data.id, set: fields.data, cleared };
}

/** The start of a line this journal writes: a tail that is a piece of one was cut off by a crash mid-write. */
const LINE_START = '{"id":';
export function cutShort(raw: Buffer): boolean {
  const text = raw.toString('utf8');
  return text.startsWith(LINE_START) || LINE_START.startsWith(text);
}

function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}
