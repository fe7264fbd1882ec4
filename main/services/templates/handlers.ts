/**
 * The template builder's channels (issue 14): the preflight (reads only),
 * starting a build as a task, and Verify (the doctor's verdict on a
 * template made by hand with the shell commands, then the catalogue).
 */
import { randomUUID } from 'node:crypto';
import type { templatesChannels } from '../../../shared/channels/templates';
import { AppError } from '../../errors/app-error';
import type { AreaHandlers } from '../../ipc/router';
import type { ClusterDirectory } from '../clusters/cluster';
import { templateVerdict } from '../doctor/template-verdicts';
import { buildApiOf, type TemplateCatalogue } from '../tasks/runners/build-template';
import type { TaskManager } from '../tasks/task-manager';
import { requestFor, templatePreflight } from './preflight';

export interface TemplateBuilderDeps {
  directory: ClusterDirectory;
  tasks: Pick<TaskManager, 'start'>;
  catalogue?: TemplateCatalogue;
}

export function templatesHandlers(deps: TemplateBuilderDeps): AreaHandlers<typeof templatesChannels> {
  return {
    'templates.preflight': (input) => templatePreflight(deps.directory.get(input.clusterId), input),
    'templates.build': async (input) => {
      const cluster = deps.directory.get(input.clusterId);
      buildApiOf(cluster);
      const { request } = await requestFor(cluster, input, randomUUID());
      const target = request.name ?? `${request.image.kind === 'catalogue' ? request.image.id : 'custom'}-template`;
      return deps.tasks.start('build-template', cluster.id, target, { kind: 'build-template', request }, request.node);
    },
    'templates.verify': async ({ clusterId, vmid, key }) => {
      const cluster = deps.directory.get(clusterId);
      const listed = await cluster.api.clusterResources('vm');
      const vm = listed.find((r) => r.vmid === vmid && r.node);
      if (!vm)
        throw new AppError(
          'not-found',
          `There is no VM ${vmid} in ${cluster.name}.`,
          'Run the commands on the node first (as root), then Verify again.',
          'vmid',
        );
      const config = await cluster.api.vmConfig(vm.node!, vmid);
      const p = cluster.profile;
      const verdict = templateVerdict(vmid, vm.node!, config, {
        ...(p.bridge ? { bridge: p.bridge } : {}),
        ...(p.vlanTag !== undefined ? { vlanTag: p.vlanTag } : {}),
      });
      if (!verdict.suitable || !key)
        return { verdict, catalogue: 'not-saved' as const, ...(verdict.suitable ? {} : { catalogueNote: 'not suitable' }) };
      if (!deps.catalogue) return { verdict, catalogue: 'not-saved' as const, catalogueNote: 'no catalogue to add it to' };
      const saved = await deps.catalogue.add(clusterId, key, vm.node!, vmid);
      return { verdict, catalogue: saved.catalogue, ...(saved.note ? { catalogueNote: saved.note } : {}) };
    },
  };
}
