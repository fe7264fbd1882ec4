/** The schemas accept what Proxmox really sends and reject what the app cannot use. */
import { describe, expect, it } from 'vitest';
import { fixtureJson } from '../../../fixtures';
import * as S from '../../../main/core/pve/schemas';

const data = (name: string) => fixtureJson<{ data: unknown }>(name)!.data;

describe('schemas', () => {
  it('every captured and reconstructed success answer parses with its endpoint schema', () => {
    const pairs: [string, { safeParse(v: unknown): { success: boolean } }][] = [
      ['version', S.VersionSchema],
      ['nodes', S.NodesSchema],
      ['cluster_status', S.ClusterStatusSchema],
      ['cluster_resources', S.ClusterResourcesSchema],
      ['cluster_resources_during_clone', S.ClusterResourcesSchema],
      ['cluster_resources_during_destroy', S.ClusterResourcesSchema],
      ['node_status', S.NodeStatusSchema],
      ['storage_list', S.StorageListSchema],
      ['storage_status', S.StorageStatusSchema],
      ['storage_content_iso', S.StorageContentSchema],
      ['config_during_destroy', S.VmConfigSchema],
      ['status_current_paused', S.VmStatusSchema],
      ['task_status_running', S.TaskStatusSchema],
      ['task_status_volume_missing', S.TaskStatusSchema],
      ['agent_network_get_interfaces', S.AgentNetworkSchema],
      ['network', S.NetworkSchema],
      ['permissions', S.PermissionsSchema],
      ['clone_response', S.UpidSchema],
    ];
    for (const [name, schema] of pairs) expect([name, schema.safeParse(data(name)).success]).toEqual([name, true]);
    expect(S.TaskLogAnswerSchema.safeParse(fixtureJson('task_log_clone')).success).toBe(true);
  });

  it('reads the placeholder Proxmox answers for an empty task log as no lines (issue 25), a real line as a line', () => {
    // pve-common src/PVE/Tools.pm dump_logfile: an empty file answers one line `no content`, numbered 1, count 1.
    expect(S.TaskLogAnswerSchema.parse({ data: [{ n: 1, t: 'no content' }], total: 1 })).toEqual({ lines: [], total: 0 });
    expect(S.TaskLogAnswerSchema.parse({ data: [{ n: 1, t: 'starting VM 100' }], total: 1 }).lines).toHaveLength(1);
    expect(S.TaskLogAnswerSchema.parse({ data: [{ n: 2, t: 'no content' }], total: 2 }).lines).toHaveLength(1);
  });

  it('accepts numbers as strings and strings as numbers, and 0/1 or true/false flags', () => {
    const r = S.ClusterResourceSchema.parse({
      id: 'qemu/1',
      type: 'qemu',
      vmid: '101',
      maxmem: '2048',
      name: 42,
      template: '1',
      extra: { x: 1 },
    });
    expect(r).toEqual({ id: 'qemu/1', type: 'qemu', vmid: 101, maxmem: 2048, name: '42', template: true });
    expect(S.StorageStatusSchema.parse({ type: 'dir', content: 'iso,backup', active: true }).content).toEqual(['iso', 'backup']);
  });

  it('rejects what the app cannot use', () => {
    expect(S.TaskStatusSchema.safeParse({ ...(data('task_status_ok') as object), status: 'finished' }).success).toBe(false);
    expect(S.ClusterResourceSchema.safeParse({ id: 'qemu/1', type: 'qemu', vmid: 'one hundred' }).success).toBe(false);
    expect(S.VmConfigSchema.safeParse({ cores: { n: 1 } }).success).toBe(false);
    expect(S.UpidSchema.safeParse('not a upid').success).toBe(false);
    expect(S.VersionSchema.safeParse({ version: '9.2.20' }).success).toBe(false);
  });
});
