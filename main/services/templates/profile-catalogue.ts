/**
 * A built (or verified) template into the profile's catalogue: a new key as
 * `{vmid}`; under a key that already names another template, as this node's
 * template (`perNode`, shared/domain/profile.ts TemplateEntry). The demo
 * cluster is built in and never changes.
 */
import type { ProfileService } from '../profiles/service';
import type { TemplateCatalogue } from '../tasks/runners/build-template';

export function profileCatalogue(profiles: Pick<ProfileService, 'get' | 'save'>): TemplateCatalogue {
  return {
    async add(clusterId, key, node, vmid) {
      const summary = profiles.get(clusterId);
      if (summary.demo) return { catalogue: 'not-saved', note: 'the demo cluster is built in: its catalogue cannot change' };
      const { id, demo: _demo, secretAvailable: _secret, createdAt: _created, updatedAt: _updated, ...fields } = summary;
      const existing = Object.hasOwn(fields.templates, key) ? fields.templates[key] : undefined;
      if (existing && (existing.vmid === vmid || existing.perNode?.[node] === vmid)) return { catalogue: 'unchanged' };
      const entry = existing ? { ...existing, perNode: { ...existing.perNode, [node]: vmid } } : { vmid };
      await profiles.save({ id, profile: { ...fields, templates: { ...fields.templates, [key]: entry } } });
      return existing
        ? { catalogue: 'per-node', note: `"${key}" already named template ${existing.vmid}; ${node} now clones ${vmid}` }
        : { catalogue: 'added' };
    },
  };
}
