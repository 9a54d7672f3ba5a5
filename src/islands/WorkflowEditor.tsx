import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  ReactFlow, Background, Controls, Handle, Position, addEdge, applyEdgeChanges, applyNodeChanges,
  type Connection, type Edge, type EdgeChange, type Node, type NodeChange, type NodeProps,
} from '@xyflow/react';
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
  const nextId = useRef(Math.max(0, ...start.nodes.map((n) => Number(n.id))) + 1);
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

  const addNode = (kind: ApiNode['kind']) => {
    const id = nextId.current++;
    const api: ApiNode = { id, kind, name: '', ...(kind === 'delay' ? { delay_seconds: 60 } : {}), ...(kind === 'task' ? { template_id: templates[0]?.id ?? null } : {}) };
    setNodes((ns) => [...ns, { id: String(id), type: 'workflow', position: { x: 40 + (ns.length % 3) * 300, y: 40 + ns.length * 110 }, data: { api, label: labelOf(api, m), problem: false }, selected: true }]);
    setSelected({ kind: 'node', id: String(id) });
  };
  const patchNode = (id: string, patch: Partial<ApiNode>) => setNodes((ns) => ns.map((n) => {
    if (n.id !== id) return n;
    const api = { ...n.data.api, ...patch };
    return { ...n, data: { ...n.data, api, label: labelOf(api, m) }, ariaLabel: labelOf(api, m) };
  }));
  const patchEdge = (id: string, patch: Partial<ApiEdge>) => setEdges((es) => es.map((e) => (e.id === id ? { ...edgeOf({ ...e.data!.api, ...patch }, 0, m), id } : e)));
  const remove = () => {
    if (!selected) return;
    if (selected.kind === 'node') {
      setNodes((ns) => ns.filter((n) => n.id !== selected.id));
      setEdges((es) => es.filter((e) => e.source !== selected.id && e.target !== selected.id));
    } else setEdges((es) => es.filter((e) => e.id !== selected.id));
    setSelected(null);
  };

  const node = selected?.kind === 'node' ? nodes.find((n) => n.id === selected.id) : undefined;
  const edge = selected?.kind === 'edge' ? edges.find((e) => e.id === selected.id) : undefined;

  if (!mounted) {
    return <textarea name={name} defaultValue={initial} rows={12} aria-label={m.graphJson} spellCheck={false} className="wfe-json" />;
  }
  return (
    <div className="wfe">
      <input type="hidden" name={name} value={json} />
      <div className="wfe-palette" role="toolbar" aria-label={m.palette}>
        {KINDS.map((kind) => <button type="button" key={kind} data-add={kind} onClick={() => addNode(kind)}>{m.add} {m[`kind_${kind}`] ?? kind}</button>)}
      </div>
      <div className="wfe-main">
        <div className="wfe-canvas" aria-label={m.canvas}>
          <ReactFlow nodes={shown} edges={edges} nodeTypes={NODE_TYPES} onNodesChange={onNodesChange} onEdgesChange={onEdgesChange} onConnect={onConnect}
            onNodeClick={(_, n) => setSelected({ kind: 'node', id: n.id })} onEdgeClick={(_, e) => setSelected({ kind: 'edge', id: e.id })}
            onPaneClick={() => setSelected(null)} fitView={start.nodes.length > 0} fitViewOptions={{ maxZoom: 1 }} defaultViewport={{ x: 0, y: 0, zoom: 1 }} minZoom={0.3} maxZoom={1.5} deleteKeyCode={['Delete', 'Backspace']} proOptions={{ hideAttribution: true }}>
            <Background />
            <Controls />
          </ReactFlow>
        </div>
        <aside className="wfe-panel" aria-label={m.properties}>
          {node && <NodePanel api={node.data.api} templates={templates} m={m} onChange={(patch) => patchNode(node.id, patch)} />}
          {edge && <EdgePanel api={edge.data!.api} m={m} onChange={(patch) => patchEdge(edge.id, patch)} />}
          {(node || edge) && <button type="button" className="wfe-remove" onClick={remove}>{m.remove}</button>}
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

function NodePanel({ api, templates, m, onChange }: { api: ApiNode; templates: { id: number; name: string }[]; m: Record<string, string>; onChange: (patch: Partial<ApiNode>) => void }) {
  const number = (value: string) => (value === '' ? 0 : Math.max(0, Math.floor(Number(value) || 0)));
  const [survey, setSurvey] = useState(JSON.stringify((api.task_params?.environment as Record<string, unknown>) ?? {}, null, 1));
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
          <label>{m.surveyValues}
            <textarea rows={3} value={survey} spellCheck={false} data-field="environment" onChange={(e) => {
              setSurvey(e.target.value);
              try {
                const parsed = JSON.parse(e.target.value || '{}');
                if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) onChange({ task_params: { ...(api.task_params ?? {}), environment: parsed } });
              } catch { /* kept as typed until it is JSON */ }
            }} />
          </label>
        </>
      )}
      {api.kind === 'delay' && <label>{m.delaySeconds}<input type="number" min={1} value={api.delay_seconds ?? 0} onChange={(e) => onChange({ delay_seconds: number(e.target.value) })} data-field="delay_seconds" /></label>}
      {api.kind === 'approval' && (
        <>
          <label>{m.approvalMessage}<input value={api.approval_message ?? ''} onChange={(e) => onChange({ approval_message: e.target.value })} data-field="approval_message" /></label>
          <label>{m.approvalTimeout}<input type="number" min={0} value={api.approval_timeout ?? 0} onChange={(e) => onChange({ approval_timeout: number(e.target.value) })} data-field="approval_timeout" /></label>
          <label className="wfe-check"><input type="checkbox" checked={Boolean(api.approval_four_eyes)} onChange={(e) => onChange({ approval_four_eyes: e.target.checked })} data-field="approval_four_eyes" />{m.fourEyes}</label>
        </>
      )}
      {api.kind === 'note' && <label>{m.note}<textarea rows={4} value={api.note ?? ''} onChange={(e) => onChange({ note: e.target.value })} data-field="note" /></label>}
      {api.kind !== 'note' && (
        <label>{m.convergence}
          <select value={api.convergence_mode ?? 'all'} onChange={(e) => onChange({ convergence_mode: e.target.value === 'any' ? 'any' : 'all' })} data-field="convergence_mode">
            <option value="all">{m.convergence_all}</option>
            <option value="any">{m.convergence_any}</option>
          </select>
        </label>
      )}
    </fieldset>
  );
}

function EdgePanel({ api, m, onChange }: { api: ApiEdge; m: Record<string, string>; onChange: (patch: Partial<ApiEdge>) => void }) {
  const [pairs, setPairs] = useState((api.input_mappings ?? []).map((p) => `${p.variable}=${p.output}`).join('\n'));
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
        <label>{m.mappings}
          <textarea rows={3} value={pairs} spellCheck={false} data-field="input_mappings" onChange={(e) => {
            setPairs(e.target.value);
            const mappings = e.target.value.split('\n').map((line) => line.split('=')).filter((p) => p.length === 2 && p[0]!.trim() && p[1]!.trim())
              .map(([variable, output]) => ({ variable: variable!.trim(), output: output!.trim() }));
            onChange({ input_mappings: mappings });
          }} />
        </label>
      )}
    </fieldset>
  );
}
