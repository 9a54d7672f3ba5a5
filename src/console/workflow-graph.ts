import { html, type SafeHtml } from './html.ts';

/** A node of a run as the run page draws it (from `GET …/runs/{run_id}`). */
export interface RunGraphNode {
  id: number;
  kind: string;
  name: string;
  status: string;
  due: string | null;
  task_id: number | null;
  outputs: number;
  x?: number;
  y?: number;
}

export interface RunGraphEdge {
  source_node_id: number;
  destination_node_id: number;
  condition: string;
}

/** The words the graph shows, in the page's language. */
export interface GraphWords {
  kind: (kind: string) => string;
  status: (status: string) => string;
  outputs: (count: number) => string;
  condition: (condition: string) => string;
  label: string;
}

export const NODE_W = 184;
export const NODE_H = 76;
const GAP_X = 72;
const GAP_Y = 36;
const PAD = 16;

/**
 * Where each node sits: its editor position when the workflow was laid out in the editor, else
 * a column per depth (longest path from the start) and a row per node in that column; notes
 * go in a last column.
 * @example layoutGraph(nodes, edges).get(1) // { x: 16, y: 16 }
 */
export function layoutGraph(nodes: RunGraphNode[], edges: RunGraphEdge[]): Map<number, { x: number; y: number }> {
  const placed = new Map<number, { x: number; y: number }>();
  if (nodes.some((n) => (n.x ?? 0) !== 0 || (n.y ?? 0) !== 0)) {
    const minX = Math.min(...nodes.map((n) => n.x ?? 0));
    const minY = Math.min(...nodes.map((n) => n.y ?? 0));
    for (const n of nodes) placed.set(n.id, { x: (n.x ?? 0) - minX + PAD, y: (n.y ?? 0) - minY + PAD });
    return placed;
  }
  const depth = new Map<number, number>();
  const working = nodes.filter((n) => n.kind !== 'note');
  // longest path: relax the edges once per node (graphs are small and acyclic)
  for (const n of working) depth.set(n.id, 0);
  for (let i = 0; i < working.length; i++) {
    for (const e of edges) {
      const d = (depth.get(e.source_node_id) ?? 0) + 1;
      if (depth.has(e.destination_node_id) && d > depth.get(e.destination_node_id)!) depth.set(e.destination_node_id, d);
    }
  }
  const lastColumn = Math.max(0, ...depth.values()) + 1;
  const rows = new Map<number, number>();
  for (const n of nodes) {
    const column = n.kind === 'note' ? lastColumn : depth.get(n.id) ?? 0;
    const row = rows.get(column) ?? 0;
    rows.set(column, row + 1);
    placed.set(n.id, { x: PAD + column * (NODE_W + GAP_X), y: PAD + row * (NODE_H + GAP_Y) });
  }
  return placed;
}

/**
 * The run graph as SVG markup, drawn on the server: a box per node with its kind, name and
 * status (the status also as text, never colour alone), a countdown slot for a waiting delay
 * or approval deadline (`data-due`, filled by the page's script; the time itself without
 * JavaScript), an outputs badge, and a link to the node's task.
 * @example runGraphSvg(nodes, edges, words, (id) => `/project/1/history?t=${id}`)
 */
export function runGraphSvg(nodes: RunGraphNode[], edges: RunGraphEdge[], words: GraphWords, taskHref: (taskId: number) => string): SafeHtml {
  const at = layoutGraph(nodes, edges);
  const width = Math.max(...[...at.values()].map((p) => p.x)) + NODE_W + PAD;
  const height = Math.max(...[...at.values()].map((p) => p.y)) + NODE_H + PAD;
  const lines = edges.map((e) => edgeMarkup(e, at, words));
  const boxes = nodes.map((n) => nodeMarkup(n, at.get(n.id)!, words, taskHref));
  return html`<svg class="wf-graph" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${words.label}" xmlns="http://www.w3.org/2000/svg">
<defs><marker id="wf-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="wf-arrowhead"/></marker></defs>
${lines}${boxes}</svg>`;
}

function edgeMarkup(e: RunGraphEdge, at: Map<number, { x: number; y: number }>, words: GraphWords): SafeHtml {
  const from = at.get(e.source_node_id);
  const to = at.get(e.destination_node_id);
  if (!from || !to) return html``;
  const x1 = from.x + NODE_W;
  const y1 = from.y + NODE_H / 2;
  const x2 = to.x;
  const y2 = to.y + NODE_H / 2;
  const mid = (x1 + x2) / 2;
  const label = e.condition === 'on_success' ? html`` : html`<text class="wf-edge-label" x="${mid}" y="${(y1 + y2) / 2 - 6}" text-anchor="middle">${words.condition(e.condition)}</text>`;
  return html`<g class="wf-edge wf-edge-${e.condition}"><path d="M${x1} ${y1}C${mid} ${y1} ${mid} ${y2} ${x2 - 2} ${y2}" marker-end="url(#wf-arrow)"/>${label}</g>`;
}

function nodeMarkup(n: RunGraphNode, p: { x: number; y: number }, words: GraphWords, taskHref: (taskId: number) => string): SafeHtml {
  const title = n.name || `${words.kind(n.kind)} ${n.id}`;
  const due = n.due && (n.status === 'delay' || n.status === 'approval')
    ? html`<text class="wf-due" x="${p.x + 12}" y="${p.y + 66}" data-due="${n.due}">${n.due.slice(11, 19)} UTC</text>`
    : html``;
  const badge = n.outputs > 0
    ? html`<g class="wf-badge"><rect x="${p.x + NODE_W - 86}" y="${p.y + 52}" width="78" height="18" rx="9"/><text x="${p.x + NODE_W - 47}" y="${p.y + 65}" text-anchor="middle">${words.outputs(n.outputs)}</text></g>`
    : html``;
  const box = html`<rect x="${p.x}" y="${p.y}" width="${NODE_W}" height="${NODE_H}" rx="8"/>
<text class="wf-kind" x="${p.x + 12}" y="${p.y + 18}">${words.kind(n.kind)}</text>
<text class="wf-name" x="${p.x + 12}" y="${p.y + 37}">${clip(title, 22)}</text>
<text class="wf-status" x="${p.x + 12}" y="${p.y + 54}">${n.kind === 'note' ? '' : words.status(n.status)}</text>${due}${badge}`;
  const inner = n.task_id ? html`<a href="${taskHref(n.task_id)}" aria-label="${title}: ${words.status(n.status)}">${box}</a>` : box;
  return html`<g class="wf-node wf-${n.kind} wf-status-${n.status}" data-node="${n.id}" data-status="${n.status}" data-task-id="${n.task_id ?? ''}">${inner}</g>`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
