/** The Create form's values and their check against the schema main uses (plus the YAML check of the user-data). */
import { CreateProxiesInput } from '../../../../shared/channels/tasks';
import { ProxyTestInput } from '../../../../shared/channels/proxy-check';
import { yamlProblems } from './yaml-check';

export interface CreateForm {
  clusterId: string;
  /** Empty: the app picks the node. */
  node: string;
  template: string;
  machineType: string;
  name: string;
  count: string;
  presetId: string;
  port: string;
  cloudInit: string;
}

export type FormProblems = Partial<Record<keyof CreateForm, string>>;

const countSchema = CreateProxiesInput.shape.count;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A fresh `proxy-` name in the style main uses for unnamed proxies. */
export function suggestName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return 'proxy-' + [...bytes].map((b) => BASE32[b % 32]).join('');
}

export function checkForm(f: CreateForm): { input: CreateProxiesInput | undefined; problems: FormProblems } {
  const problems: FormProblems = {};
  const parsed = CreateProxiesInput.safeParse({
    clusterId: f.clusterId,
    node: f.node || undefined,
    template: f.template,
    machineType: f.machineType,
    name: f.name || undefined,
    count: f.count.trim() === '' ? Number.NaN : Number(f.count),
    cloudInit: f.cloudInit,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof CreateForm | undefined;
      if (field && !problems[field]) problems[field] = plain(field, issue.message);
    }
  }
  const yamlError = yamlProblems(f.cloudInit).find((p) => p.severity === 'error');
  if (yamlError && !problems.cloudInit) problems.cloudInit = `The user-data is not valid YAML: ${yamlError.message}`;
  return { input: parsed.success && !yamlError ? parsed.data : undefined, problems };
}

/** The preset's port, checked like the proxy check's port. */
export function portProblem(port: string): string | undefined {
  const r = ProxyTestInput.shape.port.safeParse(Number(port));
  return r.success && port.trim() !== '' ? undefined : 'a port from 1 to 65535';
}

function plain(field: keyof CreateForm, message: string): string {
  if (field === 'clusterId') return 'choose a cluster';
  if (field === 'template') return 'choose a template';
  if (field === 'machineType') return 'choose a machine type';
  if (field === 'count') return `a whole number from ${countSchema.minValue} to ${countSchema.maxValue}`;
  return message;
}
