/**
 * The first line cloud-init needs to act on user-data. cloud-init decides
 * the part's type from how it starts (lower-cased, leading blanks ignored:
 * cloudinit/handlers type_from_starts_with), or reads it as MIME when a
 * MIME header is there; anything else it ignores without a word, so the
 * proxy would boot with nothing installed. The YAML check applies to
 * cloud-config only: a shell script is not YAML.
 */

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

/** The sentence for user-data cloud-init would ignore, or undefined when its start is one cloud-init acts on. */
export function headerProblem(text: string): string | undefined {
  if (userDataKind(text)) return undefined;
  if (text.trim() === '') return 'The user-data is empty: start it with a #cloud-config line, or choose a preset above.';
  const first = text.trimStart().split('\n', 1)[0]!.slice(0, 40);
  return `The user-data must start with a line cloud-init recognises, such as #cloud-config (or #! for a script, #include, a MIME Content-Type: header, ## template: jinja). It starts with “${first}”, which cloud-init would ignore, so the proxy would boot with nothing set up.`;
}
