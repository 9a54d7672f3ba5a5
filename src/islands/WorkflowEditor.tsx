import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ReactFlow, Background, Controls, Handle, Position, addEdge, applyEdgeChanges, applyNodeChanges,
  type ColorMode, type Connection, type Edge, type EdgeChange, type Node, type NodeChange, type NodeProps, type ReactFlowInstance,
} from '@xyflow/react';
import { freeSpot, parseFieldText, type FieldRule } from './workflow-fields.ts';
import '@xyflow/react/dist/style.css';
import './workflow-editor.css';

/** A node and an edge as the workflow API reads and answers them. */
interface ApiNode {
  id: number; kind: 'task' | 'approval' | 'delay' | 'note'; name?: string; template_id?: number | null; convergence_mode?: 'all' | 'any';
  approval_timeout?: number; approval_message?: string; approval_four_eyes?: boolean; delay_seconds?: number; note?: string;
  task_params?: Record<string, unknown>; pos_x?: number; pos_y?: number;
}
interface ApiEdge {
  source_node_id: number; destination_node_id: number; condition?: 'on_success' | 'on_failure' | 'always';
  input_mode?: 'by_name' | 'explicit'; input_mappings?: { variable: string; output: string }[];
}
interface Problem { node_id: number | null; message: string }

export interface WorkflowEditorProps {
  /** the form field the graph is posted in (JSON `{nodes, edges}`) */
  name: string;
  initial: string;
  projectId: number;
  templates: { id: number; name: string }[];
  /** the editor's words (`workflowEditor` locale section) */
  m: Record<string, string>;
}

type FlowNode = Node<{ api: ApiNode; label: string; problem: boolean }>;
type FlowEdge = Edge<{ api: ApiEdge }>;

const KINDS: ApiNode['kind'][] = ['task', 'approval', 'delay', 'note'];

function parseGraph(text: string): { nodes: ApiNode[]; edges: ApiEdge[] } {
  try {
    const parsed = JSON.parse(text);
    return { nodes: Array.isArray(parsed.nodes) ? parsed.nodes : [], edges: Array.isArray(parsed.edges) ? parsed.edges : [] };
  } catch {
    return { nodes: [], edges: [] };
  }
}

function labelOf(api: ApiNode, m: Record<string, string>): string {
  return api.name || `${m[`kind_${api.kind}`] ?? api.kind} ${api.id}`;
}

function toFlow(graph: { nodes: ApiNode[]; edges: ApiEdge[] }, m: Record<string, string>): { nodes: FlowNode[]; edges: FlowEdge[] } {
  const nodes = graph.nodes.map((api, i) => ({
    id: String(api.id), type: 'workflow', position: { x: api.pos_x || 40 + (i % 3) * 260, y: api.pos_y || 40 + Math.floor(i / 3) * 140 },
    data: { api, label: labelOf(api, m), problem: false }, ariaLabel: labelOf(api, m),
  }));
  const edges = graph.edges.map((api, i) => edgeOf(api, i, m));
  return { nodes, edges };
}

function edgeOf(api: ApiEdge, i: number | string, m: Record<string, string>): FlowEdge {
  const condition = api.condition ?? 'on_success';
  return {
    id: `e${i}-${api.source_node_id}-${api.destination_node_id}`, source: String(api.source_node_id), target: String(api.destination_node_id),
    label: condition === 'on_success' ? undefined : m[`condition_${condition}`], className: `wfe-edge-${condition}`, data: { api: { ...api, condition } },
  };
}

function fromFlow(nodes: FlowNode[], edges: FlowEdge[]): { nodes: ApiNode[]; edges: ApiEdge[] } {
  return {
    nodes: nodes.map((n) => ({ ...n.data.api, pos_x: Math.round(n.position.x), pos_y: Math.round(n.position.y) })),
    edges: edges.map((e) => ({ ...e.data!.api, source_node_id: Number(e.source), destination_node_id: Number(e.target) })),
  };
}

/** A node box: kind, name, and handles to connect (notes have none). */
function WorkflowNodeBox({ data, selected }: NodeProps<FlowNode>) {
  const { api } = data;
  return (
    <div className={`wfe-node wfe-${api.kind}${selected ? ' wfe-selected' : ''}${data.problem ? ' wfe-problem' : ''}`}>
      {api.kind !== 'note' && <Handle type="target" position={Position.Left} />}
      <div className="wfe-kind">{api.kind}</div>
      <div className="wfe-name">{data.label}</div>
      {api.kind !== 'note' && <Handle type="source" position={Position.Right} />}
    </div>
  );
}

const NODE_TYPES = { workflow: WorkflowNodeBox };

/**
 * The workflow editor: drag nodes, connect handles, edit a node or connection in the side
 * panel, and see the server's own validation in the Problems list. The graph is kept in the
 * form field `name` as the API's `{nodes, edges}`, so saving is the page's plain form post
 * (without JavaScript the same field is a textarea).
 */
export default function WorkflowEditor({ name, initial, projectId, templates, m }: WorkflowEditorProps) {
  const start = useMemo(() => toFlow(parseGraph(initial), m), [initial, m]);
  const [nodes, setNodes] = useState<FlowNode[]>(start.nodes);
  const [edges, setEdges] = useState<FlowEdge[]>(start.edges);
  const [selected, setSelected] = useState<{ kind: 'node' | 'edge'; id: string } | null>(null);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [mounted, setMounted] = useState(false);
  // what was typed into a number, JSON or mapping field that does not read yet: `${item id}:${field}` → text
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const nextId = useRef(Math.max(0, ...start.nodes.map((n) => Number(n.id))) + 1);
  const flow = useRef<ReactFlowInstance<FlowNode, FlowEdge> | null>(null);
  const canvas = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const [fitSoon, setFitSoon] = useState(0);
  useEffect(() => setMounted(true), []);

  const graph = useMemo(() => fromFlow(nodes, edges), [nodes, edges]);
  const json = useMemo(() => JSON.stringify(graph), [graph]);

  // the server checks the graph as it is saved; asking it here keeps the two lists the same
  useEffect(() => {
    const timer = setTimeout(() => {
      void fetch(`/api/project/${projectId}/workflows/validate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json })
        .then((res) => (res.ok ? res.json() : { problems: [] }))
        .then((body: { problems: Problem[] }) => setProblems(body.problems ?? []))
        .catch(() => undefined);
    }, 300);
    return () => clearTimeout(timer);
  }, [json, projectId]);

  const problemIds = useMemo(() => new Set(problems.map((p) => p.node_id).filter((id) => id !== null).map(String)), [problems]);
  const shown = useMemo(() => nodes.map((n) => (n.data.problem === problemIds.has(n.id) ? n : { ...n, data: { ...n.data, problem: problemIds.has(n.id) } })), [nodes, problemIds]);

  const onNodesChange = useCallback((changes: NodeChange<FlowNode>[]) => setNodes((ns) => applyNodeChanges(changes, ns)), []);
  const onEdgesChange = useCallback((changes: EdgeChange<FlowEdge>[]) => setEdges((es) => applyEdgeChanges(changes, es)), []);
  const onConnect = useCallback((c: Connection) => setEdges((es) => addEdge(edgeOf({ source_node_id: Number(c.source), destination_node_id: Number(c.target) }, Date.now(), m), es)), [m]);

  // A new step goes to the first free place of the part of the canvas on screen, left to right
  // then down; when none is left there, the view zooms out to show every step.
  const addNode = (kind: ApiNode['kind']) => {
    const id = nextId.current++;
    const api: ApiNode = { id, kind, name: '', ...(kind === 'delay' ? { delay_seconds: 60 } : {}), ...(kind === 'task' ? { template_id: templates[0]?.id ?? null } : {}) };
    const box = canvas.current?.getBoundingClientRect();
    const instance = flow.current;
    const topLeft = instance && box ? instance.screenToFlowPosition({ x: box.left, y: box.top }) : { x: 0, y: 0 };
    const bottomRight = instance && box ? instance.screenToFlowPosition({ x: box.right, y: box.bottom }) : { x: 700, y: 450 };
    const spot = freeSpot(nodes.map((n) => n.position), { x: topLeft.x, y: topLeft.y, width: bottomRight.x - topLeft.x, height: bottomRight.y - topLeft.y });
    setNodes((ns) => [
      ...ns.map((n) => (n.selected ? { ...n, selected: false } : n)),
      { id: String(id), type: 'workflow', position: spot.position, data: { api, label: labelOf(api, m), problem: false }, selected: true },
    ]);
    setSelected({ kind: 'node', id: String(id) });
    if (!spot.inView) setFitSoon((n) => n + 1);
  };
  useEffect(() => {
    if (!fitSoon) return;
    // once the new step is measured
    const frame = requestAnimationFrame(() => void flow.current?.fitView({ padding: 0.15, maxZoom: 1 }));
    return () => cancelAnimationFrame(frame);
  }, [fitSoon]);
  const patchNode = (id: string, patch: Partial<ApiNode>) => setNodes((ns) => ns.map((n) => {
    if (n.id !== id) return n;
    const api = { ...n.data.api, ...patch };
    return { ...n, data: { ...n.data, api, label: labelOf(api, m) }, ariaLabel: labelOf(api, m) };
  }));
  const patchEdge = (id: string, patch: Partial<ApiEdge>) => setEdges((es) => es.map((e) => (e.id === id ? { ...edgeOf({ ...e.data!.api, ...patch }, 0, m), id } : e)));
  const remove = () => {
    if (!selected) return;
    setDrafts((d) => Object.fromEntries(Object.entries(d).filter(([key]) => !key.startsWith(`${selected.id}:`))));
    if (selected.kind === 'node') {
      setNodes((ns) => ns.filter((n) => n.id !== selected.id));
      setEdges((es) => es.filter((e) => e.source !== selected.id && e.target !== selected.id));
    } else setEdges((es) => es.filter((e) => e.id !== selected.id));
    setSelected(null);
  };

  const node = selected?.kind === 'node' ? nodes.find((n) => n.id === selected.id) : undefined;
  const edge = selected?.kind === 'edge' ? edges.find((e) => e.id === selected.id) : undefined;

  // A typed value that does not read is kept as typed, with its message; the step keeps its last
  // good value meanwhile, and the form is not saved until the value reads.
  const typed = (itemId: string): TypedField => ({
    text: (field, shown) => drafts[`${itemId}:${field}`] ?? shown,
    message: (field, rule) => {
      const text = drafts[`${itemId}:${field}`];
      const read = text === undefined ? null : parseFieldText(rule, text);
      return read && 'error' in read ? fieldMessage(read.error, m) : '';
    },
    change: (field, rule, text, apply) => {
      const read = parseFieldText(rule, text);
      setDrafts((d) => ({ ...d, [`${itemId}:${field}`]: text }));
      if ('value' in read) apply(read.value);
    },
  });
  const unreadable = Object.entries(drafts).filter(([key, text]) => {
    const [itemId, field] = key.split(':') as [string, string];
    const rule = FIELD_RULES[field];
    return rule && (nodes.some((n) => n.id === itemId) || edges.some((e) => e.id === itemId)) && 'error' in parseFieldText(rule, text);
  }).map(([key]) => key.split(':') as [string, string]);
  const unreadableNow = useRef(unreadable);
  unreadableNow.current = unreadable;
  useEffect(() => {
    const form = root.current?.closest('form');
    if (!form) return;
    const onSubmit = (event: SubmitEvent) => {
      const first = unreadableNow.current[0];
      if (!first) return;
      event.preventDefault();
      const [itemId, field] = first;
      setSelected({ kind: nodes.some((n) => n.id === itemId) ? 'node' : 'edge', id: itemId });
      requestAnimationFrame(() => root.current?.querySelector<HTMLElement>(`.wfe-panel [data-field="${field}"]`)?.focus());
    };
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  });

  if (!mounted) {
    return <textarea name={name} defaultValue={initial} rows={12} aria-label={m.graphJson} spellCheck={false} className="wfe-json" />;
  }
  return (
    <div className="wfe" ref={root}>
      <input type="hidden" name={name} value={json} />
      <div className="wfe-palette" role="toolbar" aria-label={m.palette}>
        {KINDS.map((kind) => <button type="button" className="btn btn-secondary" key={kind} data-add={kind} onClick={() => addNode(kind)}>+ {m[`kind_${kind}`] ?? kind}</button>)}
      </div>
      <div className="wfe-main">
        <div className="wfe-canvas" aria-label={m.canvas} ref={canvas}>
          <ReactFlow nodes={shown} edges={edges} nodeTypes={NODE_TYPES} onNodesChange={onNodesChange} onEdgesChange={onEdgesChange} onConnect={onConnect}
            onInit={(instance) => { flow.current = instance; }} colorMode={colorMode()}
            onNodeClick={(_, n) => setSelected({ kind: 'node', id: n.id })} onEdgeClick={(_, e) => setSelected({ kind: 'edge', id: e.id })}
            onPaneClick={() => setSelected(null)} fitView={start.nodes.length > 0} fitViewOptions={{ maxZoom: 1, padding: 0.15 }} defaultViewport={{ x: 0, y: 0, zoom: 1 }} minZoom={0.3} maxZoom={1.5} deleteKeyCode={['Delete', 'Backspace']} proOptions={{ hideAttribution: true }}>
            <Background />
            <Controls position="bottom-right" />
          </ReactFlow>
        </div>
        <aside className="wfe-panel" aria-label={m.properties}>
          {node && <NodePanel key={node.id} api={node.data.api} templates={templates} m={m} typed={typed(node.id)} onChange={(patch) => patchNode(node.id, patch)} />}
          {edge && <EdgePanel key={edge.id} api={edge.data!.api} m={m} typed={typed(edge.id)} onChange={(patch) => patchEdge(edge.id, patch)} />}
          {(node || edge) && <button type="button" className="btn btn-outline wfe-remove" onClick={remove}>{m.remove}</button>}
          {!node && !edge && <p>{m.selectHint}</p>}
          <NodePicker nodes={nodes} m={m} onPick={(id) => setSelected({ kind: 'node', id })} />
        </aside>
      </div>
      <section className="wfe-problems" aria-live="polite" aria-label={m.problems}>
        <h3>{m.problems} ({problems.length})</h3>
        {problems.length === 0 ? <p>{m.noProblems}</p> : (
          <ul>{problems.map((p, i) => (
            <li key={i}>{p.node_id !== null ? <button type="button" className="wfe-link" onClick={() => setSelected({ kind: 'node', id: String(p.node_id) })}>{p.message}</button> : p.message}</li>
          ))}</ul>
        )}
      </section>
    </div>
  );
}

/** Every node as a button: a keyboard way to select any node without the canvas. */
function NodePicker({ nodes, m, onPick }: { nodes: FlowNode[]; m: Record<string, string>; onPick: (id: string) => void }) {
  if (!nodes.length) return null;
  return (
    <nav aria-label={m.nodeList} className="wfe-node-list">
      <ul>{nodes.map((n) => <li key={n.id}><button type="button" className="wfe-link" onClick={() => onPick(n.id)}>{n.data.label}</button></li>)}</ul>
    </nav>
  );
}

/** The words of a field's message (`workflowEditor` messages). */
function fieldMessage(error: { key: string; vars?: Record<string, string | number> }, m: Record<string, string>): string {
  return (m[error.key] ?? error.key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(error.vars?.[name] ?? ''));
}

/** How a panel reads and writes a field whose text may not read yet (see WorkflowEditor's drafts). */
interface TypedField {
  text: (field: string, shown: string) => string;
  message: (field: string, rule: FieldRule) => string;
  change: (field: string, rule: FieldRule, text: string, apply: (value: unknown) => void) => void;
}

const FIELD_RULES: Record<string, FieldRule> = {
  delay_seconds: { kind: 'integer', min: 1 },
  approval_timeout: { kind: 'integer', min: 0 },
  environment: { kind: 'object' },
  input_mappings: { kind: 'mappings' },
};

/** A labelled text field kept as typed, with its message beside it while it does not read. */
function TypedInput({ field, label, shown, typed, apply, multiline = false }: {
  field: string; label: string; shown: string; typed: TypedField; apply: (value: unknown) => void; multiline?: boolean;
}) {
  const rule = FIELD_RULES[field]!;
  const message = typed.message(field, rule);
  const id = `wfe-${field}-error`;
  const common = {
    value: typed.text(field, shown), 'data-field': field, 'aria-invalid': message ? true : undefined, 'aria-describedby': message ? id : undefined,
    onChange: (e: { target: { value: string } }) => typed.change(field, rule, e.target.value, apply),
  };
  return (
    <label>{label}
      {multiline ? <textarea rows={3} spellCheck={false} {...common} /> : <input inputMode="numeric" autoComplete="off" {...common} />}
      {message && <small id={id} className="field-error" role="alert">{message}</small>}
    </label>
  );
}

function NodePanel({ api, templates, m, typed, onChange }: { api: ApiNode; templates: { id: number; name: string }[]; m: Record<string, string>; typed: TypedField; onChange: (patch: Partial<ApiNode>) => void }) {
  return (
    <fieldset className="wfe-fields">
      <legend>{m[`kind_${api.kind}`] ?? api.kind}</legend>
      <label>{m.name}<input value={api.name ?? ''} maxLength={255} onChange={(e) => onChange({ name: e.target.value })} data-field="name" /></label>
      {api.kind === 'task' && (
        <>
          <label>{m.template}
            <select value={api.template_id ?? ''} onChange={(e) => onChange({ template_id: e.target.value ? Number(e.target.value) : null })} data-field="template_id">
              <option value="">—</option>
              {templates.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
            </select>
          </label>
          <TypedInput field="environment" label={m.surveyValues} multiline typed={typed}
            shown={JSON.stringify((api.task_params?.environment as Record<string, unknown>) ?? {}, null, 1)}
            apply={(environment) => onChange({ task_params: { ...(api.task_params ?? {}), environment } })} />
        </>
      )}
      {api.kind === 'delay' && <TypedInput field="delay_seconds" label={m.delaySeconds} shown={String(api.delay_seconds ?? 60)} typed={typed}
        apply={(value) => onChange({ delay_seconds: value as number })} />}
      {api.kind === 'approval' && (
        <>
          <label>{m.approvalMessage}<input value={api.approval_message ?? ''} onChange={(e) => onChange({ approval_message: e.target.value })} data-field="approval_message" /></label>
          <TypedInput field="approval_timeout" label={m.approvalTimeout} shown={String(api.approval_timeout ?? 0)} typed={typed}
            apply={(value) => onChange({ approval_timeout: value as number })} />
          <label className="wfe-check"><input type="checkbox" checked={Boolean(api.approval_four_eyes)} onChange={(e) => onChange({ approval_four_eyes: e.target.checked })} data-field="approval_four_eyes" />{m.fourEyes}</label>
        </>
      )}
      {api.kind === 'note' && <label>{m.note}<textarea rows={4} value={api.note ?? ''} onChange={(e) => onChange({ note: e.target.value })} data-field="note" /></label>}
      {api.kind !== 'note' && (
        <fieldset className="wfe-choice" data-field="convergence_mode">
          <legend>{m.convergence}</legend>
          {(['all', 'any'] as const).map((mode) => (
            <label key={mode} className="wfe-check">
              <input type="radio" name={`wfe-convergence-${api.id}`} value={mode} checked={(api.convergence_mode ?? 'all') === mode}
                onChange={() => onChange({ convergence_mode: mode })} />
              {m[`convergence_${mode}`]}
            </label>
          ))}
        </fieldset>
      )}
    </fieldset>
  );
}

function EdgePanel({ api, m, typed, onChange }: { api: ApiEdge; m: Record<string, string>; typed: TypedField; onChange: (patch: Partial<ApiEdge>) => void }) {
  return (
    <fieldset className="wfe-fields">
      <legend>{m.connection}</legend>
      <label>{m.condition}
        <select value={api.condition ?? 'on_success'} onChange={(e) => onChange({ condition: e.target.value as ApiEdge['condition'] })} data-field="condition">
          {(['on_success', 'on_failure', 'always'] as const).map((c) => <option key={c} value={c}>{m[`condition_${c}`]}</option>)}
        </select>
      </label>
      <label className="wfe-check"><input type="checkbox" checked={api.input_mode === 'explicit'} onChange={(e) => onChange({ input_mode: e.target.checked ? 'explicit' : 'by_name' })} data-field="input_mode" />{m.explicitInputs}</label>
      {api.input_mode === 'explicit' && (
        <TypedInput field="input_mappings" label={m.mappings} multiline typed={typed}
          shown={(api.input_mappings ?? []).map((p) => `${p.variable}=${p.output}`).join('\n')}
          apply={(mappings) => onChange({ input_mappings: mappings as ApiEdge['input_mappings'] })} />
      )}
    </fieldset>
  );
}

/** The page's theme (Pico's data-theme), for the canvas's own colours. */
function colorMode(): ColorMode {
  const theme = typeof document === 'undefined' ? '' : document.documentElement.dataset.theme;
  return theme === 'dark' || theme === 'light' ? theme : 'system';
}
