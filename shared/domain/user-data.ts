/**
 * The one rule for cloud-init user-data, for every place that takes it: the
 * Create form and the migrate, reconfigure and recreate dialogs check it
 * before sending, and main checks it again before any task exists (issue 22
 * item 15: main took `hello` for a reconfigure the dialog refused).
 *
 * The first line cloud-init needs to act on user-data. cloud-init decides
 * the part's type from how it starts (lower-cased, leading blanks ignored:
 * cloudinit/handlers type_from_starts_with), or reads it as MIME when a
 * MIME header is there; anything else it ignores without a word, so the
 * proxy would boot with nothing installed. The YAML check applies to
 * cloud-config only: a shell script is not YAML.
 */
import { parseDocument } from 'yaml';

/** The longest user-data the app takes (the IPC schemas' bound, shared/channels/tasks.ts). */
export const USER_DATA_MAX_CHARS = 64 * 1024;

/** What cloud-init recognises at the start of user-data, most specific first. */
const headers = [
  { start: '#cloud-config-archive', kind: 'cloud-config-archive' },
  { start: '#cloud-config-jsonp', kind: 'cloud-config-jsonp' },
  { start: '#cloud-config', kind: 'cloud-config' },
  { start: '#cloud-boothook', kind: 'boothook' },
  { start: '#include-once', kind: 'include' },
  { start: '#include', kind: 'include' },
  { start: '#part-handler', kind: 'part-handler' },
  { start: '#upstart-job', kind: 'upstart-job' },
  { start: '## template: jinja', kind: 'jinja' },
  { start: '#!', kind: 'script' },
  { start: 'content-type:', kind: 'mime' },
  { start: 'mime-version:', kind: 'mime' },
] as const;

export type UserDataKind = (typeof headers)[number]['kind'];

export function userDataKind(text: string): UserDataKind | undefined {
  const start = text.trimStart().slice(0, 32).toLowerCase();
  return headers.find((h) => start.startsWith(h.start))?.kind;
}

/** Where the user-data is written: whether presets are offered above the editor (the words may point at them only then). */
export interface UserDataPlace {
  presetsAbove?: boolean;
}

/** The sentence for user-data cloud-init would ignore, or undefined when its start is one cloud-init acts on. */
export function headerProblem(text: string, place: UserDataPlace = {}): string | undefined {
  if (userDataKind(text)) return undefined;
  if (text.trim() === '')
    return `The user-data is empty: start it with a #cloud-config line${place.presetsAbove ? ', or choose a preset above' : ''}.`;
  const first = text.trimStart().split('\n', 1)[0]!.slice(0, 40);
  return `The user-data must start with a line cloud-init recognises, such as #cloud-config (or #! for a script, #include, a MIME Content-Type: header, ## template: jinja). It starts with “${first}”, which cloud-init would ignore, so the proxy would boot with nothing set up.`;
}

/** A YAML problem in the user-data, with its offsets (the editor's linter marks them). */
export interface YamlProblem {
  from: number;
  to: number;
  message: string;
  severity: 'error' | 'warning';
}

export function yamlProblems(text: string): YamlProblem[] {
  const doc = parseDocument(text, { prettyErrors: false });
  const toProblem = (severity: YamlProblem['severity']) => (e: { pos: [number, number]; message: string }) => ({
    from: Math.min(e.pos[0], text.length),
    to: Math.min(Math.max(e.pos[1], e.pos[0]), text.length),
    message: e.message.split('\n')[0] ?? e.message,
    severity,
  });
  return [...doc.errors.map(toProblem('error')), ...doc.warnings.map(toProblem('warning'))];
}

/** Too long, a start cloud-init would ignore, or (for cloud-config) YAML that does not parse; undefined when it is fine. */
export function userDataProblem(text: string, place: UserDataPlace = {}): string | undefined {
  if (text.length > USER_DATA_MAX_CHARS)
    return `The user-data is at most ${USER_DATA_MAX_CHARS.toLocaleString('en')} characters: this is ${text.length.toLocaleString('en')}.`;
  const header = headerProblem(text, place);
  if (header) return header;
  if (userDataKind(text) !== 'cloud-config') return undefined;
  const yamlError = yamlProblems(text).find((p) => p.severity === 'error');
  if (!yamlError) return undefined;
  const line = text.slice(0, yamlError.from).split('\n').length;
  return `The user-data is not valid YAML at line ${line}: ${yamlError.message.replace(/ at line \d+, column \d+.*$/, '').replace(/\.$/, '')}.`;
}
