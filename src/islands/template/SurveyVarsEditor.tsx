import { useState } from 'react';
import {
  SURVEY_TYPES, surveyVarErrors, surveyVarsFromApi, surveyVarsToApi, type SurveyVarDraft,
} from '../../console/template-rules.ts';
import { FieldMessage, onEnter, PlainField, useMounted, type Messages } from './editor-kit.tsx';

/** `keys`: the project keys an options URL may be sent (login/password as Basic auth, a string as a bearer token) */
interface Props { name: string; initial: string; keys: { id: number; name: string }[]; m: Messages }

const EMPTY: SurveyVarDraft = { name: '', title: '', description: '', type: 'string', values: [], default_value: '', required: false, do_not_store: false, target: '', values_url: '', values_url_key_id: null };

function parse(text: string): SurveyVarDraft[] | null {
  if (!text.trim()) return [];
  try {
    const raw: unknown = JSON.parse(text);
    return Array.isArray(raw) ? surveyVarsFromApi(raw) : null;
  } catch {
    return null;
  }
}

/**
 * Survey variables of a template (seed 001 §3/§5): a table of the variables and a panel to add
 * or edit one (name, title, description, type string/int/secret/enum, enum values, default,
 * required). The list posts as JSON in the hidden `survey_vars` field.
 */
export default function SurveyVarsEditor({ name, initial, keys, m }: Props) {
  const mounted = useMounted();
  const [vars, setVars] = useState<SurveyVarDraft[] | null>(() => parse(initial));
  const [editing, setEditing] = useState<{ index: number | null; draft: SurveyVarDraft; tried: boolean } | null>(null);
  if (!mounted || vars === null) return <PlainField name={name} value={initial} label={m.survey_vars} hint={m.json_hint} />;

  const errors = editing?.tried ? surveyVarErrors(editing.draft) : {};
  const say = (key?: string) => (key ? m[key] : undefined);
  const change = (patch: Partial<SurveyVarDraft>) => setEditing((e) => e && { ...e, draft: { ...e.draft, ...patch } });
  const save = () => {
    if (!editing) return;
    if (Object.keys(surveyVarErrors(editing.draft)).length) { setEditing({ ...editing, tried: true }); return; }
    const draft = { ...editing.draft, name: editing.draft.name.trim(), title: editing.draft.title.trim() };
    setVars(editing.index === null ? [...vars, draft] : vars.map((v, i) => (i === editing.index ? draft : v)));
    setEditing(null);
  };
  const d = editing?.draft;
  return (
    <div className="tpl-editor" data-editor="survey">
      <input type="hidden" name={name} value={JSON.stringify(surveyVarsToApi(vars))} />
      {vars.length ? (
        <div className="tpl-editor-scroll">
          <table className="tpl-editor-table">
            <thead><tr><th>{m.survey_title}</th><th>{m.survey_name}</th><th>{m.survey_type}</th><th>{m.survey_required}</th><th><span className="visually-hidden">{m.actions}</span></th></tr></thead>
            <tbody>
              {vars.map((v, i) => (
                <tr key={i} data-survey-var={v.name}>
                  <td>{v.title}</td><td><code>{v.name}</code></td><td>{m[`type_${v.type}`]}</td><td>{v.required ? '✓' : ''}</td>
                  <td className="tpl-row-actions">
                    <button type="button" className="btn btn-outline btn-small" aria-label={m.edit} title={m.edit} onClick={() => setEditing({ index: i, draft: { ...v, values: [...v.values] }, tried: false })}>✎</button>
                    <button type="button" className="btn btn-outline btn-small" aria-label={m.remove} title={m.remove} onClick={() => setVars(vars.filter((_, j) => j !== i))}>×</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : <p className="tpl-editor-empty">{m.survey_empty}</p>}
      {editing && d ? (
        <fieldset className="tpl-editor-panel" onKeyDown={onEnter(save)} aria-label={editing.index === null ? m.survey_add : m.survey_edit}>
          <div className="tpl-grid-2">
            <label>{m.survey_name}
              <input value={d.name} onChange={(e) => change({ name: e.target.value })} aria-invalid={errors.name ? true : undefined} aria-describedby="sv-name-error" data-sv="name" />
              <FieldMessage id="sv-name-error" text={say(errors.name)} />
            </label>
            <label>{m.survey_title}
              <input value={d.title} onChange={(e) => change({ title: e.target.value })} aria-invalid={errors.title ? true : undefined} aria-describedby="sv-title-error" data-sv="title" />
              <FieldMessage id="sv-title-error" text={say(errors.title)} />
            </label>
          </div>
          <label>{m.survey_description}<input value={d.description} onChange={(e) => change({ description: e.target.value })} data-sv="description" /></label>
          <label>{m.survey_type}
            <select value={d.type} onChange={(e) => change({ type: e.target.value as SurveyVarDraft['type'] })} data-sv="type">
              {SURVEY_TYPES.map((type) => <option key={type} value={type}>{m[`type_${type}`]}</option>)}
            </select>
          </label>
          <label>{m.survey_target}
            <select value={d.target} onChange={(e) => change({ target: e.target.value === 'env' ? 'env' : '' })} data-sv="target">
              <option value="">{m.target_variable}</option>
              <option value="env">{m.target_env}</option>
            </select>
          </label>
          <label>{m.survey_default}
            <input value={d.default_value} type={d.type === 'secret' ? 'password' : 'text'} inputMode={d.type === 'int' ? 'numeric' : undefined}
              onChange={(e) => change({ default_value: e.target.value })} data-sv="default" />
          </label>
          {d.type === 'enum' && (
            <div className="tpl-enum" role="group" aria-label={m.survey_values} aria-describedby="sv-values-error">
              <span>{m.survey_values}</span>
              {d.values.map((x, i) => (
                <div className="tpl-enum-row" key={i}>
                  <input aria-label={m.value_name} placeholder={m.value_name} value={x.name} data-sv-value-name={i}
                    onChange={(e) => change({ values: d.values.map((y, j) => (j === i ? { ...y, name: e.target.value } : y)) })} />
                  <input aria-label={m.value_value} placeholder={m.value_value} value={x.value} data-sv-value-value={i}
                    onChange={(e) => change({ values: d.values.map((y, j) => (j === i ? { ...y, value: e.target.value } : y)) })} />
                  <button type="button" className="btn btn-outline btn-small" aria-label={m.remove} onClick={() => change({ values: d.values.filter((_, j) => j !== i) })}>×</button>
                </div>
              ))}
              <button type="button" className="btn btn-outline btn-small" onClick={() => change({ values: [...d.values, { name: '', value: '' }] })}>{m.value_add}</button>
              <FieldMessage id="sv-values-error" text={say(errors.values)} />
            </div>
          )}
          {d.type === 'enum' && (
            <label className="tpl-values-url">{m.survey_values_url}
              <input type="url" value={d.values_url} placeholder="https://" onChange={(e) => change({ values_url: e.target.value })} aria-describedby="sv-values-url-hint" data-sv="values_url" />
              <small id="sv-values-url-hint">{m.survey_values_url_hint}</small>
            </label>
          )}
          {d.type === 'enum' && d.values_url.trim() !== '' && (
            <label>{m.survey_values_url_key}
              <select value={d.values_url_key_id ?? ''} onChange={(e) => change({ values_url_key_id: e.target.value ? Number(e.target.value) : null })} data-sv="values_url_key_id">
                <option value="">—</option>
                {keys.map((k) => <option key={k.id} value={k.id}>{k.name}</option>)}
              </select>
            </label>
          )}
          <label className="tpl-check"><input type="checkbox" checked={d.required} onChange={(e) => change({ required: e.target.checked })} data-sv="required" /> {m.survey_required}</label>
          <label className="tpl-check"><input type="checkbox" checked={d.do_not_store} onChange={(e) => change({ do_not_store: e.target.checked })} data-sv="do_not_store" /> {m.survey_do_not_store}</label>
          <div className="tpl-panel-actions">
            <button type="button" className="btn btn-outline" onClick={() => setEditing(null)}>{m.cancel}</button>
            <button type="button" className="btn btn-secondary" onClick={save} data-sv="save">{editing.index === null ? m.add : m.apply}</button>
          </div>
        </fieldset>
      ) : (
        <button type="button" className="btn btn-outline" onClick={() => setEditing({ index: null, draft: { ...EMPTY, values: [] }, tried: false })}>{m.survey_add}</button>
      )}
    </div>
  );
}
