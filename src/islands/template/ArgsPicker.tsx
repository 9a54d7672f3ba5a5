import { useState } from 'react';
import { argError, parseArguments } from '../../console/template-rules.ts';
import { FieldMessage, onEnter, PlainField, useMounted, type Messages } from './editor-kit.tsx';

interface Props { name: string; initial: string; m: Messages }

/**
 * The args picker (seed 001 §5): CLI arguments added one by one, trimmed, none empty
 * (arg_required), removable and reorderable. Posts as a JSON array in the hidden `arguments` field;
 * without JavaScript the textarea takes a JSON array or one argument per line.
 */
export default function ArgsPicker({ name, initial, m }: Props) {
  const mounted = useMounted();
  const [args, setArgs] = useState<string[] | null>(() => parseArguments(initial));
  const [draft, setDraft] = useState('');
  const [error, setError] = useState('');
  const plain = (parseArguments(initial) ?? []).join('\n');
  if (!mounted || args === null) return <PlainField name={name} value={args === null ? initial : plain} label={m.arguments} hint={m.args_hint} />;

  const add = () => {
    const problem = argError(draft);
    if (problem) { setError(m[problem]!); return; }
    setArgs([...args, draft.trim()]);
    setDraft('');
    setError('');
  };
  const move = (i: number, by: number) => {
    const next = [...args];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    setArgs(next);
  };
  return (
    <div className="tpl-editor" data-editor="args">
      <input type="hidden" name={name} value={args.length ? JSON.stringify(args) : ''} />
      {args.length > 0 && (
        <ol className="tpl-args">
          {args.map((arg, i) => (
            <li key={`${i}-${arg}`} data-arg={arg}>
              <code>{arg}</code>
              <span className="tpl-row-actions">
                <button type="button" className="btn btn-outline btn-small" aria-label={m.move_up} disabled={i === 0} onClick={() => move(i, -1)}>↑</button>
                <button type="button" className="btn btn-outline btn-small" aria-label={m.move_down} disabled={i === args.length - 1} onClick={() => move(i, 1)}>↓</button>
                <button type="button" className="btn btn-outline btn-small" aria-label={m.remove} onClick={() => setArgs(args.filter((_, j) => j !== i))}>×</button>
              </span>
            </li>
          ))}
        </ol>
      )}
      <div className="tpl-arg-add" onKeyDown={onEnter(add)}>
        <input value={draft} placeholder="--verbose" aria-label={m.arg_new} onChange={(e) => setDraft(e.target.value)}
          aria-invalid={error ? true : undefined} aria-describedby="arg-error" data-arg-input />
        <button type="button" className="btn btn-outline" onClick={add} data-arg-add>{m.add}</button>
      </div>
      <FieldMessage id="arg-error" text={error} />
    </div>
  );
}
