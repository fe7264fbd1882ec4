/**
 * Issue 26, the other way: YAML holding the operator's `Proxy` objects (one
 * per document, or a `List`, or a kustomize-free bundle's files pasted one
 * after another) and optionally a providers-config entry, read into the
 * app's own create requests (the same names, placement and cloud-init) and,
 * per providers-config entry, an offer of a new cluster profile
 * (operator-profile.ts). Each object is checked against the operator's
 * schemas (operator-schemas.ts); what the app cannot take is said in words,
 * per object, and nothing is half taken. An entry's problems are its offer's
 * own: they do not hold back the Proxies, which are made on a cluster the
 * user chose. Pure.
 */
import { parseAllDocuments } from 'yaml';
import { profileOfferOf, type ProfileOffer } from './operator-profile';
import { OperatorProviderEntry, OperatorProxy, schemaProblems, type OperatorProviderEntry as Entry } from './operator-schemas';

/** A Proxmox VM name the app makes (shared/channels/tasks.ts ProxyName): a DNS label. */
const APP_PROXY_NAME = /^[a-z]([a-z0-9-]*[a-z0-9])?$/;

export interface ImportedProxy {
  name: string;
  /** placement.zone; undefined: the app picks (the operator takes the single node). */
  node?: string | undefined;
  template: string;
  machineType: string;
  cloudInit: string;
  port: number;
  provider: string;
}

export interface ImportResult {
  proxies: ImportedProxy[];
  /** The providers-config entries found (each may be offered as a new cluster profile). */
  providers: Entry[];
  /** Every providers-config entry found, valid or not, as an offer of a new cluster profile. */
  offers: ProfileOffer[];
  /** What could not be taken, in words; empty when everything was. */
  problems: string[];
}

function objectsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(objectsOf);
  if (value && typeof value === 'object' && (value as { kind?: unknown }).kind === 'List') return objectsOf((value as { items?: unknown }).items ?? []);
  return value === null || value === undefined ? [] : [value];
}

export function importOperatorYaml(text: string): ImportResult {
  const out: ImportResult = { proxies: [], providers: [], offers: [], problems: [] };
  const docs = parseAllDocuments(text);
  const list = Array.isArray(docs) ? docs : [docs];
  list.forEach((doc, i) => {
    if (doc.errors.length > 0) return void out.problems.push(`Document ${i + 1} is not YAML: ${doc.errors[0]!.message}`);
    for (const obj of objectsOf(doc.toJS())) {
      const o = obj as { kind?: unknown; type?: unknown; metadata?: { name?: unknown } };
      if (o.kind === 'Proxy') {
        const name = typeof o.metadata?.name === 'string' ? o.metadata.name : `(document ${i + 1})`;
        const p = OperatorProxy.safeParse(obj);
        if (!p.success) {
          out.problems.push(`Proxy ${name}: ${schemaProblems(p.error).join('; ')}`);
          continue;
        }
        const m = p.data;
        if (!APP_PROXY_NAME.test(m.metadata.name) || m.metadata.name.length > 63) {
          out.problems.push(`Proxy ${name}: the app names a VM with a DNS label (lowercase letters, digits and dashes, starting with a letter, at most 63), so it cannot make one named ${name}.`);
          continue;
        }
        if (out.proxies.some((x) => x.name === m.metadata.name)) {
          out.problems.push(`Proxy ${name} is in the text twice; keep one.`);
          continue;
        }
        out.proxies.push({
          name: m.metadata.name,
          ...(m.spec.placement.zone !== undefined ? { node: m.spec.placement.zone } : {}),
          template: m.spec.placement.image,
          machineType: m.spec.placement.machineType,
          cloudInit: m.spec.cloudInit.inline,
          port: m.spec.port,
          provider: m.spec.provider,
        });
      } else if (o.type === 'proxmox') {
        out.offers.push(profileOfferOf(obj));
        const e = OperatorProviderEntry.safeParse(obj);
        if (e.success) out.providers.push(e.data);
      } else if (o.kind === 'Kustomization' || o.kind === 'Secret') {
        // A bundle's own files, pasted along: nothing to make from them.
      } else out.problems.push(`Document ${i + 1} is neither a Proxy nor a proxmox providers-config entry; it was left out.`);
    }
  });
  if (out.proxies.length === 0 && out.offers.length === 0 && out.problems.length === 0) out.problems.push('The text holds no Proxy.');
  return out;
}
