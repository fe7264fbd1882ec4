/** YAML problems in the user-data, with their offsets, for the editor's linter and the form's submit check. */
import { parseDocument } from 'yaml';

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
