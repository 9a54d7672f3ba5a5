// CodeMirror 6 in JSON mode for the JSON ⇄ table editor: JSON language, parse-error lint, undo,
// tab size 2. Imported dynamically by the island, so only an open editing dialog downloads it.
import { EditorView, keymap, lineNumbers, drawSelection, highlightActiveLine } from '@codemirror/view';
import { EditorState } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { indentUnit, syntaxHighlighting, defaultHighlightStyle, bracketMatching } from '@codemirror/language';
import { linter, lintGutter } from '@codemirror/lint';
import { TAB_SIZE } from './json-table.ts';

export interface JsonEditor { setText: (text: string) => void; destroy: () => void; focus: () => void }

/** The editor's frame; CodeMirror's own styles come with it into the shadow root. */
const frame = EditorView.theme({
  // The page's colours reach into the shadow root through its custom properties (light and dark theme).
  '&': {
    border: '1px solid var(--pico-form-element-border-color, #b0b8c1)', borderRadius: '4px', minHeight: '8rem', maxHeight: '20rem',
    backgroundColor: 'var(--pico-form-element-background-color, #fff)', color: 'var(--pico-color, #1f2937)',
  },
  '&.cm-focused': { outline: '2px solid var(--pico-primary, #0172ad)', outlineOffset: '1px' },
  '.cm-cursor': { borderLeftColor: 'var(--pico-color, #1f2937)' },
  '.cm-activeLine': { backgroundColor: 'transparent' },
  '.cm-scroller': { overflow: 'auto', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.875rem', minHeight: '8rem' },
  '.cm-gutters': {
    backgroundColor: 'var(--pico-card-sectioning-background-color, #f3f4f6)', color: 'var(--pico-muted-color, #6b7280)',
    borderRight: '1px solid var(--pico-muted-border-color, #d1d5db)',
  },
});

/**
 * Mounts an editor holding `doc` into `host`; `onChange` receives every new text. The editor
 * lives in an open shadow root: there CodeMirror puts its generated styles in a constructed
 * style sheet, which the page's Content-Security-Policy (hashes only, no inline <style>) allows.
 * @example const editor = createJsonEditor(div, '{}', (text) => setText(text), 'Extra variables');
 */
export function createJsonEditor(host: HTMLElement, doc: string, onChange: (text: string) => void, label: string): JsonEditor {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  shadow.replaceChildren();
  const parent = document.createElement('div');
  shadow.append(parent);
  const view = new EditorView({
    parent,
    root: shadow,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        EditorState.tabSize.of(TAB_SIZE), indentUnit.of(' '.repeat(TAB_SIZE)),
        frame, json(), syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        linter(jsonParseLinter(), { delay: 300 }), lintGutter(),
        EditorView.contentAttributes.of({ 'aria-label': label }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange(update.state.doc.toString()); }),
      ],
    }),
  });
  return {
    setText: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    destroy: () => view.destroy(),
    focus: () => view.focus(),
  };
}
