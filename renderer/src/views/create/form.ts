/**
 * The Create form's values and their check, before anything is sent: main's
 * own schema (CreateProxiesInput) decides, the names are the ones main will
 * make (shared/domain/proxy-names), and every refusal is a sentence that
 * names the field and the rule; no schema text reaches the user.
 */
import { CreateProxiesInput } from '../../../../shared/channels/tasks';
import { ProxyTestInput } from '../../../../shared/channels/proxy-check';
import { userDataProblem } from '../../../../shared/domain/user-data';
import { checkNames, countProblem } from './words';

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

export interface FormContext {
  /** Who already has a name in the chosen cluster, in words; undefined when it is free. */
  takenBy: (name: string) => string | undefined;
  /** Why no template can be sent yet (still checking, none suitable), when the form holds none. */
  templateProblem?: string;
  /** Why the node choice cannot work (every node down). */
  nodeProblem?: string;
}

export interface FormCheck {
  /** What to send; undefined while anything is refused. */
  input: CreateProxiesInput | undefined;
  problems: FormProblems;
  /** The names the proxies will get (empty when main picks a random one). */
  names: string[];
  count: number;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A fresh `proxy-` name in the style main uses for unnamed proxies. */
export function suggestName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return 'proxy-' + [...bytes].map((b) => BASE32[b % 32]).join('');
}

export function checkForm(f: CreateForm, ctx: FormContext): FormCheck {
  const problems: FormProblems = {};
  const { count, problem: countWords } = countProblem(f.count);
  if (countWords) problems.count = countWords;
  const { names, problem: nameWords } = countWords ? { names: [], problem: undefined } : checkNames(f.name, count, ctx.takenBy);
  if (nameWords) problems.name = nameWords;
  if (!f.clusterId) problems.clusterId = 'Choose a cluster: connect one in Settings if the list is empty.';
  if (!f.template) problems.template = ctx.templateProblem ?? 'Choose a template.';
  if (!f.machineType) problems.machineType = 'Choose a machine type: add one in Templates if the list is empty.';
  if (ctx.nodeProblem) problems.node = ctx.nodeProblem;
  const cloudInit = userDataProblem(f.cloudInit, { presetsAbove: true });
  if (cloudInit) problems.cloudInit = cloudInit;

  const parsed = CreateProxiesInput.safeParse({
    clusterId: f.clusterId,
    node: f.node || undefined,
    template: f.template,
    machineType: f.machineType,
    name: f.name || undefined,
    count,
    cloudInit: f.cloudInit,
  });
  if (!parsed.success) {
    // Anything the sentences above did not already cover still gets words, never the schema's text.
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof CreateForm | undefined;
      if (field && !problems[field]) problems[field] = fallbackWords[field] ?? 'This value is not accepted.';
    }
  }
  const ok = parsed.success && Object.keys(problems).length === 0;
  return { input: ok ? parsed.data : undefined, problems, names, count };
}

const fallbackWords: FormProblems = {
  clusterId: 'Choose a cluster from the list.',
  node: 'Choose a node from the list, or Automatic.',
  template: 'Choose a template from the list.',
  machineType: 'Choose a machine type from the list.',
  name: 'Names use lower-case letters, digits and dashes, start with a letter and end with a letter or a digit.',
  count: 'Count is how many proxies to create: a whole number from 1 to 50.',
  cloudInit: 'The user-data is not accepted.',
};

/** The preset's port, checked like the proxy check's port. */
export function portProblem(port: string): string | undefined {
  const r = ProxyTestInput.shape.port.safeParse(Number(port));
  return r.success && /^\s*\d+\s*$/.test(port) ? undefined : 'The port is a whole number from 1 to 65535.';
}

/** The port as a number once it is a valid one. */
export function portNumber(port: string): number | undefined {
  return portProblem(port) === undefined ? Number(port) : undefined;
}
