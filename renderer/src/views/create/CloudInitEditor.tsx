/**
 * The cloud-init user-data editor: CodeMirror 6 with YAML highlighting and
 * a linter that marks what the `yaml` package cannot parse. The editor is
 * created once; a new value from outside (a preset) replaces its text.
 * It lives in a shadow root: there CodeMirror styles itself with
 * constructable stylesheets, which the strict CSP allows, instead of the
 * <style> elements it adds to a plain document, which the CSP refuses.
 */
import { useEffect, useRef } from 'react';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { linter, lintGutter } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { yamlProblems } from './yaml-check';

const theme = EditorView.theme({
  '&': { backgroundColor: 'var(--panel)', color: 'var(--text)', border: '1px solid var(--border)', borderRadius: '4px', fontSize: '13px' },
  '.cm-gutters': { backgroundColor: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-content': { fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace', caretColor: 'var(--text)' },
  '&.cm-focused': { outline: '2px solid var(--accent)' },
  '.cm-scroller': { minHeight: '180px', maxHeight: '320px' },
});

/** Colours from the app's theme variables, so the text reads well in light and dark. */
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--accent)' },
  { tag: [tags.comment, tags.meta], color: 'var(--muted)', fontStyle: 'italic' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--ok)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--warn)' },
  { tag: [tags.punctuation, tags.separator, tags.operator], color: 'var(--muted)' },
]);

export interface CloudInitEditorProps {
  value: string;
  onChange: (text: string) => void;
  /** The accessible name of the editing area. */
  label: string;
  describedBy?: string;
}

export function CloudInitEditor({ value, onChange, label, describedBy }: CloudInitEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

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
          keymap.of([indentWithTab, ...defaultKeymap, ...historyKeymap]),
          yaml(),
          syntaxHighlighting(highlight),
          linter((cm) => yamlProblems(cm.state.doc.toString()), { delay: 250 }),
          lintGutter(),
          theme,
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-multiline': 'true',
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

  return <div ref={host} className="cloud-init-editor" />;
}
