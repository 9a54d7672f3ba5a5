import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  checkLaunch, surveyVars, varField, DEBUG_LEVELS,
  type FieldErrors, type LaunchOptions, type LaunchSurveyVar, type LaunchTemplate, type LaunchValues,
} from '../console/launch-model.ts';

interface Props {
  template: Pick<LaunchTemplate, 'id' | 'name' | 'app' | 'type'> & { survey_vars: LaunchSurveyVar[] };
  options: LaunchOptions;
  values: LaunchValues;
  errors: FieldErrors;
  /** successful builds of the build template, newest first (deploy templates) */
  builds: { id: number; label: string }[];
  inventories: { id: number; name: string }[];
  /** the project's variable groups, when the template lets a run choose them */
  environments: { id: number; name: string }[];
  /** GET of the repository's remote branches, when the template lets a run choose its branch */
  branchesUrl: string | null;
  /** the active language's `launch` messages */
  messages: Record<string, string>;
}

/**
 * The fields of the task launch dialog (seed 001 §5): message, survey variables by type (secret
 * = password, enum = select, int = digits only), build version for a deploy, the overrides the
 * template allows (branch, inventory, arguments, limit/tags/skip tags), debug with its level,
 * dry run, diff and skipping Galaxy requirements, Terraform's plan/destroy/auto-approve/upgrade/reconfigure. Rendered by the
 * server inside the form (so it posts without JavaScript); hydrated, it validates before the
 * form is sent, each field the person changed as it changes (all of them once the form was
 * sent), and offers the remote branches. What is typed stays as typed: a wrong value gets its
 * message beside the field, never a rewrite.
 */
export default function LaunchFields({ template, options: o, values: initial, errors: initialErrors, builds, inventories, environments, branchesUrl, messages }: Props) {
  const m = (key: string, vars: Record<string, string> = {}) =>
    (messages[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState(initialErrors);
  const [hydrated, setHydrated] = useState(false);
  const [branches, setBranches] = useState<string[]>([]);
  const submitted = useRef(Object.keys(initialErrors).length > 0);
  // the fields changed since the dialog opened: their messages show before the form is sent
  const touched = useRef(new Set<string>());
  const root = useRef<HTMLDivElement>(null);
  const full = { ...template, allow_override_args_in_task: o.args, allow_override_branch_in_task: o.branch } as unknown as LaunchTemplate;
  const validate = (next: LaunchValues) => checkLaunch(
    { ...full, task_params: { allow_debug: o.debug } },
    next,
    (key, vars) => m(key, vars),
  );

  useEffect(() => {
    setHydrated(true);
    const form = root.current?.closest('form');
    if (!form) return;
    const onSubmit = (event: SubmitEvent) => {
      const found = validate(currentValues.current);
      submitted.current = true;
      setErrors(found);
      const first = Object.keys(found)[0];
      if (!first) return;
      event.preventDefault();
      form.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`)?.focus();
    };
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
    // the listener reads the latest values through the ref
  }, []);

  const currentValues = useRef(values);
  currentValues.current = values;

  useEffect(() => {
    if (!branchesUrl) return;
    let live = true;
    fetch(branchesUrl).then((res) => (res.ok ? res.json() : [])).then((list: unknown) => {
      if (live && Array.isArray(list)) setBranches(list.filter((b): b is string => typeof b === 'string'));
    }).catch(() => undefined);
    return () => { live = false; };
  }, [branchesUrl]);

  const update = (patch: Partial<LaunchValues>, field: string = Object.keys(patch)[0]!) => {
    const next = { ...values, ...patch };
    setValues(next);
    touched.current.add(field);
    const found = validate(next);
    setErrors(submitted.current ? found : Object.fromEntries(Object.entries(found).filter(([name]) => touched.current.has(name))));
  };
  const setVar = (name: string, value: string) => update({ vars: { ...values.vars, [name]: value } }, varField(name));

  const field = (name: string, label: string, control: ReactNode, hint?: string) => (
    <label key={name} className={`sb-field${errors[name] ? ' sb-field-invalid' : ''}`} data-field={name}>
      <span className="sb-field-label">{label}</span>
      {control}
      {errors[name] ? <small id={`${name}-error`} className="field-error" role="alert">{errors[name]}</small>
        : hint ? <small className="sb-field-hint">{hint}</small> : null}
    </label>
  );
  const described = (name: string) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {});
  const text = (name: keyof LaunchValues, label: string, hint?: string, extra: Record<string, unknown> = {}) => field(name, label,
    <input name={name} value={String(values[name])} onChange={(e) => update({ [name]: e.target.value } as Partial<LaunchValues>)}
      autoComplete="off" {...described(name)} {...extra} />, hint);
  const check = (name: keyof LaunchValues, label: string) => (
    <label key={name}>
      <input type="checkbox" role="switch" name={name} checked={Boolean(values[name])}
        onChange={(e) => update({ [name]: e.target.checked } as Partial<LaunchValues>)} /> {label}
    </label>
  );

  const surveyField = (v: LaunchSurveyVar & { name: string }) => {
    const name = varField(v.name);
    const label = `${v.title || v.name}${v.required ? ' *' : ''}`;
    const value = values.vars[v.name] ?? '';
    const common = { name, value, ...described(name), 'aria-required': v.required || undefined };
    const hint = v.description || undefined;
    if (v.type === 'enum') {
      return field(name, label, (
        <select {...common} onChange={(e) => setVar(v.name, e.target.value)}>
          <option value="">{m('choose')}</option>
          {(v.values ?? []).map((option, i) => <option key={i} value={option.value ?? ''}>{option.name || option.value}</option>)}
        </select>
      ), hint);
    }
    if (v.type === 'secret') {
      return field(name, label, <input type="password" autoComplete="new-password" {...common} onChange={(e) => setVar(v.name, e.target.value)} />, hint);
    }
    if (v.type === 'int') {
      return field(name, label, (
        <input inputMode="numeric" autoComplete="off" {...common} onChange={(e) => setVar(v.name, e.target.value)} />
      ), hint);
    }
    if (v.type === 'text') return field(name, label, <textarea {...common} onChange={(e) => setVar(v.name, e.target.value)} />, hint);
    return field(name, label, <input autoComplete="off" {...common} onChange={(e) => setVar(v.name, e.target.value)} />, hint);
  };

  const vars = surveyVars(full);
  return (
    <div className="launch-grid" ref={root}>
      {text('message', m('message'), undefined, { maxLength: 2000 })}
      {vars.length ? (
        <fieldset className="launch-section">
          <legend>{m('survey')}</legend>
          {vars.map(surveyField)}
        </fieldset>
      ) : null}
      {o.build ? field('build_task_id', m('buildVersion'), (
        <select name="build_task_id" value={values.build_task_id} onChange={(e) => update({ build_task_id: e.target.value })} {...described('build_task_id')}>
          <option value="">{builds.length ? m('choose') : m('noBuilds')}</option>
          {builds.map((b) => <option key={b.id} value={String(b.id)}>{b.label}</option>)}
        </select>
      )) : null}
      {o.branch ? field('git_branch', m('branch'), (
        <>
          <input name="git_branch" value={values.git_branch} list="launch-branches" autoComplete="off" maxLength={255}
            onChange={(e) => update({ git_branch: e.target.value })} {...described('git_branch')} />
          <datalist id="launch-branches">{branches.map((b) => <option key={b} value={b} />)}</datalist>
        </>
      ), branches.length ? m('branchesFound', { count: String(branches.length) }) : undefined) : null}
      {o.inventory ? field('inventory_id', m('inventory'), (
        <select name="inventory_id" value={values.inventory_id} onChange={(e) => update({ inventory_id: e.target.value })}>
          <option value="">{m('templateInventory')}</option>
          {inventories.map((i) => <option key={i.id} value={String(i.id)}>{i.name}</option>)}
        </select>
      )) : null}
      {o.environments ? field('environment_ids', m('environments'), (
        <div className="launch-groups">
          {[...values.environment_ids.split(',').filter(Boolean), ''].map((chosen, i, slots) => (
            <select key={`${i}-${chosen}`} name="environment_ids" value={chosen} aria-label={`${m('environments')} ${i + 1}`}
              onChange={(e) => update({ environment_ids: slots.map((id, j) => (j === i ? e.target.value : id)).filter(Boolean).join(',') })}>
              <option value="">—</option>
              {environments.map((env) => <option key={env.id} value={String(env.id)}>{env.name}</option>)}
            </select>
          ))}
        </div>
      )) : null}
      {o.args ? field('arguments', m('arguments'), (
        <textarea name="arguments" value={values.arguments} onChange={(e) => update({ arguments: e.target.value })} spellCheck={false} />
      ), m('argumentsHint')) : null}
      {o.limit ? text('limit', m('limit'), m('listHint')) : null}
      {o.tags ? text('tags', m('tags'), m('listHint')) : null}
      {o.skipTags ? text('skip_tags', m('skipTags'), m('listHint')) : null}
      <div className="launch-switches">
        {o.debug ? check('debug', m('debug')) : null}
        {o.ansible ? check('dry_run', m('dryRun')) : null}
        {o.ansible ? check('diff', m('diff')) : null}
        {o.ansible ? check('skip_galaxy_install', m('skipGalaxyInstall')) : null}
        {o.terraform ? check('plan', m('plan')) : null}
        {o.terraform ? check('destroy', m('destroy')) : null}
        {o.autoApprove ? check('auto_approve', m('autoApprove')) : null}
        {o.terraform ? check('upgrade', m('upgrade')) : null}
        {o.terraform ? check('reconfigure', m('reconfigure')) : null}
      </div>
      {o.debug && (!hydrated || values.debug) ? field('debug_level', m('debugLevel'), (
        <select name="debug_level" value={values.debug_level} onChange={(e) => update({ debug_level: e.target.value })} {...described('debug_level')}>
          {DEBUG_LEVELS.map((level) => <option key={level} value={String(level)}>{level}</option>)}
        </select>
      )) : null}
    </div>
  );
}
