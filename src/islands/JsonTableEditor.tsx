// The JSON ⇄ table editor of a variable group's extra variables and environment variables
// (seed 001 §4). On the server (and without JavaScript) it is a plain textarea with the field's
// name; once hydrated it loads CodeMirror (dynamic import, so only an open dialog downloads it)
// and offers a key/value table. The posted field keeps the same name and carries the JSON text.
import { useEffect, useRef, useState } from 'react';
import { emptyRow, fromRows, isValidCell, toRows, type JsonRow } from './json-table.ts';
import JsonTableRow, { type JsonRowMessages } from './JsonTableRow.tsx';
import './json-table.css';
import type { JsonEditor } from './codemirror-json.ts';

export interface JsonTableMessages extends JsonRowMessages {
  json: string; table: string; tooComplex: string; invalid: string; addRow: string; mode: string;
}

interface Props { name: string; label: string; initial: string; error?: string; messages: JsonTableMessages }

export default function JsonTableEditor({ name, label, initial, error, messages }: Props) {
  const [text, setText] = useState(initial);
  const [mode, setMode] = useState<'json' | 'table'>('json');
  const [rows, setRows] = useState<JsonRow[]>([]);
  const [warning, setWarning] = useState('');
  const [enhanced, setEnhanced] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<JsonEditor | null>(null);

  const textRef = useRef(text);
  textRef.current = text;

  useEffect(() => { setEnhanced(true); }, []);

  // A number cell that holds no number keeps its text and its message; the form is not sent
  // meanwhile (the posted JSON would still carry the cell's last number).
  const rowsNow = useRef(rows);
  rowsNow.current = mode === 'table' ? rows : [];
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const form = box.current?.closest('form');
    if (!form) return;
    const onSubmit = (event: SubmitEvent) => {
      if (rowsNow.current.every(isValidCell)) return;
      event.preventDefault();
      box.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    };
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [enhanced]);

  // CodeMirror mounts while JSON mode is shown, and goes away in table mode.
  useEffect(() => {
    if (!enhanced || mode !== 'json') return;
    let cancelled = false;
    void import('./codemirror-json.ts').then(({ createJsonEditor }) => {
      if (cancelled || !host.current) return;
      editor.current = createJsonEditor(host.current, textRef.current, (next) => { textRef.current = next; setText(next); }, label);
      setLoaded(true);
    });
    return () => { cancelled = true; editor.current?.destroy(); editor.current = null; setLoaded(false); };
  }, [enhanced, mode]);

  function showTable() {
    const result = toRows(text);
    if (result.kind === 'invalid') { setWarning(`${messages.invalid} ${result.error}`); return; }
    if (result.kind === 'complex') { setWarning(messages.tooComplex); return; }
    setWarning('');
    setRows(result.rows.length ? result.rows : [emptyRow()]);
    setMode('table');
  }

  function showJson() {
    setWarning('');
    setMode('json');
  }

  // Only an edit rewrites the text: Table and back without one leaves the JSON as it was typed.
  // While a number cell holds no number the text keeps its last value, and the form is not sent.
  function changeRows(next: JsonRow[]) {
    setRows(next);
    const json = fromRows(next);
    if (json === null) return;
    textRef.current = json;
    setText(json);
  }

  const errorId = `${name}-error`;
  if (!enhanced) {
    // Named here too: before hydration (or without JavaScript) the field's heading is a plain span
    return <textarea name={name} id={`field-${name}`} rows={6} spellCheck={false} aria-label={label} aria-invalid={error ? 'true' : undefined}
      aria-describedby={error ? errorId : undefined} defaultValue={initial} />;
  }
  return (
    <div className="json-editor" data-mode={mode} data-field-editor={name} ref={box}>
      <div className="json-editor-modes" role="group" aria-label={messages.mode}>
        <button type="button" className={`btn ${mode === 'json' ? 'btn-primary' : 'btn-outline'}`} aria-pressed={mode === 'json'} onClick={showJson}>{messages.json}</button>
        <button type="button" className={`btn ${mode === 'table' ? 'btn-primary' : 'btn-outline'}`} aria-pressed={mode === 'table'} onClick={showTable}>{messages.table}</button>
      </div>
      {warning && <p className="json-editor-warning" role="alert">{warning}</p>}
      {mode === 'json' ? (
        <>
          <input type="hidden" name={name} value={text} />
          {!loaded && <textarea id={`field-${name}`} rows={6} spellCheck={false} aria-label={label} value={text}
            onChange={(e) => setText(e.target.value)} />}
          <div ref={host} className="json-editor-code" />
        </>
      ) : (
        <>
          <input type="hidden" name={name} value={text} />
          <div className="table-box">
            <table className="data-table json-editor-table">
              <thead><tr><th scope="col">{messages.key}</th><th scope="col">{messages.valueType}</th><th scope="col">{messages.value}</th><th scope="col"><span className="json-editor-sr">{messages.removeRow}</span></th></tr></thead>
              <tbody>
                {rows.map((row, i) => (
                  <JsonTableRow key={i} row={row} index={i} m={messages} onEditJson={showJson}
                    onChange={(next) => changeRows(rows.map((r, j) => (j === i ? next : r)))}
                    onRemove={() => changeRows(rows.filter((_, j) => j !== i))} />
                ))}
              </tbody>
            </table>
          </div>
          <button type="button" className="btn btn-secondary" onClick={() => setRows([...rows, emptyRow()])}>{messages.addRow}</button>
        </>
      )}
    </div>
  );
}
