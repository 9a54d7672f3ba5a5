// One key/value row of the JSON ⇄ table editor: the key, the value's JSON type and a value
// control of that type (a boolean is a checkbox, a number a numeric field, null has no text,
// a nested object or array a read-only cell that opens JSON mode).
import { EDITABLE_TYPES, isValidCell, retype, type JsonRow, type JsonType } from './json-table.ts';

export interface JsonRowMessages {
  key: string; value: string; removeRow: string; valueType: string; typeString: string; typeNumber: string;
  typeBoolean: string; typeNull: string; typeJson: string; editAsJson: string; notNumber: string;
}

/** A JSON number literal, as an input's `pattern` (the browser refuses to submit anything else). */
const NUMBER_PATTERN = '-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+\\-]?\\d+)?';

const typeLabel = (type: JsonType, m: JsonRowMessages) =>
  ({ string: m.typeString, number: m.typeNumber, boolean: m.typeBoolean, null: m.typeNull, json: m.typeJson })[type];

interface Props { row: JsonRow; index: number; m: JsonRowMessages; onChange: (row: JsonRow) => void; onRemove: () => void; onEditJson: () => void }

export default function JsonTableRow({ row, index, m, onChange, onRemove, onEditJson }: Props) {
  const n = index + 1;
  return (
    <tr data-type={row.type}>
      <td><input aria-label={`${m.key} ${n}`} value={row.key} onChange={(e) => onChange({ ...row, key: e.target.value })} /></td>
      <td>
        {row.type === 'json'
          ? <span className="json-editor-type">{m.typeJson}</span>
          : <select aria-label={`${m.valueType} ${n}`} value={row.type} onChange={(e) => onChange(retype(row, e.target.value as JsonType))}>
              {EDITABLE_TYPES.map((type) => <option key={type} value={type}>{typeLabel(type, m)}</option>)}
            </select>}
      </td>
      <td><ValueCell row={row} label={`${m.value} ${n}`} m={m} onChange={onChange} onEditJson={onEditJson} /></td>
      <td><button type="button" className="btn btn-outline" aria-label={`${m.removeRow} ${n}`} onClick={onRemove}>×</button></td>
    </tr>
  );
}

interface CellProps { row: JsonRow; label: string; m: JsonRowMessages; onChange: (row: JsonRow) => void; onEditJson: () => void }

function ValueCell({ row, label, m, onChange, onEditJson }: CellProps) {
  switch (row.type) {
    case 'boolean':
      return (
        <label className="json-editor-boolean">
          <input type="checkbox" role="switch" aria-label={label} checked={row.value === 'true'}
            onChange={(e) => onChange({ ...row, value: String(e.target.checked) })} />
          <code>{row.value}</code>
        </label>
      );
    case 'number': {
      const wrong = !isValidCell(row);
      return (
        <>
          <input aria-label={label} inputMode="decimal" required pattern={NUMBER_PATTERN} title={m.notNumber} value={row.value}
            aria-invalid={wrong ? 'true' : undefined} onChange={(e) => onChange({ ...row, value: e.target.value })} />
          {wrong && <small className="field-error" role="alert">{m.notNumber}</small>}
        </>
      );
    }
    case 'null':
      return <code className="json-editor-fixed">null</code>;
    case 'json':
      return (
        <span className="json-editor-nested">
          <code className="json-editor-fixed" title={row.value}>{row.value}</code>
          <button type="button" className="btn btn-outline" onClick={onEditJson}>{m.editAsJson}</button>
        </span>
      );
    default:
      return <input aria-label={label} value={row.value} onChange={(e) => onChange({ ...row, value: e.target.value })} />;
  }
}
