/**
 * A built (or verified) template into the profile's catalogue: a new key as
 * `{vmid}`; under a key that already names another template, as this node's
 * template (`perNode`, shared/domain/profile.ts TemplateEntry). The demo
 * cluster is built in and never written: a template built on it joins its
 * catalogue for this session only (issue 23), so the demo shows the builder
 * through to a proxy.
 */
import type { ProfileSummary } from '../../../shared/domain/profile';
import type { ProfileService } from '../profiles/service';
import type { TemplateCatalogue } from '../tasks/runners/build-template';

type Templates = ProfileSummary['templates'];
type Added = Awaited<ReturnType<TemplateCatalogue['add']>>;

/** The catalogue with `vmid` under `key` for `node`, and what that did; `templates` undefined: nothing changed. */
export function catalogueWith(templates: Templates, key: string, node: string, vmid: number): { templates?: Templates; added: Added } {
  const existing = Object.hasOwn(templates, key) ? templates[key] : undefined;
  if (existing && (existing.vmid === vmid || existing.perNode?.[node] === vmid)) return { added: { catalogue: 'unchanged' } };
  const entry = existing ? { ...existing, perNode: { ...existing.perNode, [node]: vmid } } : { vmid };
  return {
    templates: { ...templates, [key]: entry },
    added: existing
      ? { catalogue: 'per-node', note: `"${key}" already named template ${existing.vmid}; ${node} now clones ${vmid}` }
      : { catalogue: 'added' },
  };
}

export function profileCatalogue(profiles: Pick<ProfileService, 'get' | 'save' | 'setDemoTemplates'>): TemplateCatalogue {
  return {
    async add(clusterId, key, node, vmid) {
      const summary = profiles.get(clusterId);
      const next = catalogueWith(summary.templates, key, node, vmid);
      if (!next.templates) return next.added;
      if (summary.demo) {
        profiles.setDemoTemplates(next.templates);
        return { ...next.added, note: [next.added.note, 'the demo keeps it for this session only'].filter(Boolean).join('; ') };
      }
      const { id, demo: _demo, secretAvailable: _secret, createdAt: _created, updatedAt: _updated, ...fields } = summary;
      await profiles.save({ id, profile: { ...fields, templates: next.templates } });
      return next.added;
    },
  };
}
