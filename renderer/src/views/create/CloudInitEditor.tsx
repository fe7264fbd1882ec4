/**
 * The cloud-init user-data editor: CodeMirror 6 with YAML highlighting and
 * a linter that marks what the `yaml` package cannot parse and, for a
 * cloud-config that parses, what cloud-init's own schema refuses (main
 * checks it: the `cloudInit.check` channel, issue 25 item 1), each at its
 * line with the schema's words; an unknown top-level key is a warning. The editor is
 * created once; a new value from outside (a preset) replaces its text.
 * It lives in a shadow root: there CodeMirror styles itself with
 * constructable stylesheets, which the strict CSP allows, instead of the
 * <style> elements it adds to a plain document, which the CSP refuses.
 *
 * Not a keyboard trap (CodeMirror's own guidance, WCAG 2.1.2): Tab is not
 * bound, so Tab and Shift+Tab move focus out like from any field; YAML
 * indents with spaces, and Ctrl+] / Ctrl+[ indent and outdent the lines.
 * Escape is kept inside the editor, so it never closes the dialog.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { headerProblem, userDataKind, yamlProblems, type UserDataPlace, type YamlProblem } from '../../../../shared/domain/user-data';
import { useTasks } from '../../stores/tasks';

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)', borderRadius: '4px', fontSize: '13px' },
  '.cm-gutters': { backgroundColor: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-content': { fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace', caretColor: 'var(--text)' },
  '&.cm-focused': { outline: '2px solid var(--accent)' },
  '.cm-scroller': { minHeight: '180px', maxHeight: '320px' },
  // The marks' words on hover, in the app's colours (CodeMirror's own are light only).
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)' },
});

/** Colours from the app's theme variables, so the text reads well in light and dark. */
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--accent)' },
  { tag: [tags.comment, tags.meta], color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--ok)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--warn)' },
  { tag: [tags.punctuation, tags.separator, tags.operator], color: 'var(--muted)' },
]);

/** What the linter underlines: a first line cloud-init would ignore, and for cloud-config, YAML that does not parse. */
function problemsOf(text: string, place: UserDataPlace): YamlProblem[] {
  const header = headerProblem(text, place);
  if (header)
    return [{ from: 0, to: Math.max(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n')), message: header, severity: 'error' }];
  return userDataKind(text) === 'cloud-config' ? yamlProblems(text) : [];
}

/** The local marks, then (when the YAML parses) cloud-init's schema's, asked of main; a failed ask adds none. */
async function marksOf(text: string, place: UserDataPlace): Promise<YamlProblem[]> {
  const local = problemsOf(text, place);
  const api = useTasks.getState().api;
  if (local.some((p) => p.severity === 'error') || userDataKind(text) !== 'cloud-config' || !api) return local;
  const answer = await api.request['cloudInit.check']({ text, kind: 'cloud-config' });
  if (!answer.ok) return local;
  const end = text.length;
  return [
    ...local,
    ...answer.value.map((p) => ({ from: Math.min(p.from, end), to: Math.min(p.to, end), message: p.message, severity: p.severity })),
  ];
}

export interface CloudInitEditorProps {
  value: string;
  onChange: (text: string) => void;
  /** The accessible name of the editing area. */
  label: string;
  describedBy?: string;
  /** Presets are offered above the editor: an empty text's words may point at them. */
  presetsAbove?: boolean;
}

export function CloudInitEditor({ value, onChange, label, describedBy, presetsAbove = false }: CloudInitEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const placeRef = useRef<UserDataPlace>({ presetsAbove });
  placeRef.current = { presetsAbove };

  useEffect(() => {
    if (!host.current) return;
    const shadow = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
    const v = new EditorView({
      root: shadow,
      parent: shadow,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          yaml(),
          syntaxHighlighting(highlight),
          linter((cm) => marksOf(cm.state.doc.toString(), placeRef.current), { delay: 250 }),
          lintGutter(),
          theme,
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
            // Focusable content for the scroller (axe scrollable-region-focusable), once the text is taller than it
            // (the presets with credentials are); a contenteditable is in the tab order already, so Tab is unchanged.
            tabindex: '0',
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onChangeRef.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is built once; later values arrive through the effect below.
  }, []);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  // Escape belongs to the editor (CodeMirror's Escape-then-Tab, closing its panels): the dialog around it does not see it.
  const keepEscape = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') e.stopPropagation();
  };
  return <div ref={host} className="cloud-init-editor" onKeyDown={keepEscape} />;
}
