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
  /** the countdown beside a waiting node, with `{{time}}` where the minutes and seconds go */
  timeLeft: string;
}

export const NODE_W = 184;
export const NODE_H = 76;
const GAP_X = 56;
const GAP_Y = 36;
/** between the rows of the top-down layout: room for an edge's label */
const GAP_ROWS = 48;
const PAD = 16;
/** Widths at which the drawing switches to the top-down layout (workflows.css has a container query for each). */
const FIT_STEP = 80;
const FIT_MIN = 320;
const FIT_MAX = 2560;

type Point = { x: number; y: number };

/** The depth of each working node (longest path from the start) and the column after the deepest, for notes. */
function depths(nodes: RunGraphNode[], edges: RunGraphEdge[]): { depth: (n: RunGraphNode) => number } {
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
  const last = Math.max(0, ...depth.values()) + 1;
  return { depth: (n) => (n.kind === 'note' ? last : depth.get(n.id) ?? 0) };
}

/**
 * Where each node sits, left to right: its editor position when the workflow was laid out in the
 * editor, else a column per depth (longest path from the start) and a row per node in that
 * column; notes go in a last column.
 * @example layoutGraph(nodes, edges).get(1) // { x: 16, y: 16 }
 */
export function layoutGraph(nodes: RunGraphNode[], edges: RunGraphEdge[]): Map<number, Point> {
  if (nodes.some((n) => (n.x ?? 0) !== 0 || (n.y ?? 0) !== 0)) {
    const minX = Math.min(...nodes.map((n) => n.x ?? 0));
    const minY = Math.min(...nodes.map((n) => n.y ?? 0));
    return new Map(nodes.map((n) => [n.id, { x: (n.x ?? 0) - minX + PAD, y: (n.y ?? 0) - minY + PAD }]));
  }
  return layoutByDepth(nodes, edges, (depth, i) => ({ x: PAD + depth * (NODE_W + GAP_X), y: PAD + i * (NODE_H + GAP_Y) }));
}

/**
 * The same graph top to bottom, for a narrow screen: a row per depth, the nodes of a depth side
 * by side, notes in a last row (editor positions are for wide screens and are not used).
 * @example layoutGraphTall(nodes, edges).get(2) // { x: 16, y: 140 }
 */
export function layoutGraphTall(nodes: RunGraphNode[], edges: RunGraphEdge[]): Map<number, Point> {
  return layoutByDepth(nodes, edges, (depth, i) => ({ x: PAD + i * (NODE_W + GAP_Y), y: PAD + depth * (NODE_H + GAP_ROWS) }));
}

/** Each node placed by its depth and its place among the nodes of that depth. */
function layoutByDepth(nodes: RunGraphNode[], edges: RunGraphEdge[], place: (depth: number, index: number) => Point): Map<number, Point> {
  const { depth } = depths(nodes, edges);
  const taken = new Map<number, number>();
  const placed = new Map<number, Point>();
  for (const n of nodes) {
    const d = depth(n);
    const index = taken.get(d) ?? 0;
    taken.set(d, index + 1);
    placed.set(n.id, place(d, index));
  }
  return placed;
}

/**
 * The run graph as SVG markup, drawn on the server: a box per node with its kind, name and
 * status (the status also as text, never colour alone), a countdown slot for a waiting delay
 * or approval deadline (`data-due`, filled by the page's script; the time itself without
 * JavaScript), an outputs badge, and a link to the node's task. Drawn twice, left to right and
 * top to bottom: where the box is narrower than the first, the page shows the second
 * (`wf-fit-<width>` names the width for the stylesheet's container queries), so a phone shows
 * every node without scrolling sideways.
 * @example runGraphSvg(nodes, edges, words, (id) => `/project/1/history?t=${id}`)
 */
export function runGraphSvg(nodes: RunGraphNode[], edges: RunGraphEdge[], words: GraphWords, taskHref: (taskId: number) => string): SafeHtml {
  const wide = drawing(nodes, edges, layoutGraph(nodes, edges), 'wide', words, taskHref);
  const tall = drawing(nodes, edges, layoutGraphTall(nodes, edges), 'tall', words, taskHref);
  // rounded down: a box a little narrower than the drawing shrinks it rather than switch
  const fit = Math.min(FIT_MAX, Math.floor(wide.width / FIT_STEP) * FIT_STEP);
  // many steps side by side make the top-down drawing the wider one: then it is never used
  const switches = fit >= FIT_MIN && tall.width < wide.width;
  return html`<div class="wf-graph-fit${switches ? ` wf-fit-${fit}` : ''}">${wide.svg}${switches ? tall.svg : html``}</div>`;
}

function drawing(nodes: RunGraphNode[], edges: RunGraphEdge[], at: Map<number, Point>, shape: 'wide' | 'tall', words: GraphWords, taskHref: (taskId: number) => string): { svg: SafeHtml; width: number } {
  const width = Math.max(...[...at.values()].map((p) => p.x)) + NODE_W + PAD;
  const height = Math.max(...[...at.values()].map((p) => p.y)) + NODE_H + PAD;
  const lines = edges.map((e) => edgeMarkup(e, at, shape, words));
  const boxes = nodes.map((n) => nodeMarkup(n, at.get(n.id)!, words, taskHref));
  const svg = html`<svg class="wf-graph wf-graph-${shape}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${words.label}" xmlns="http://www.w3.org/2000/svg">
<defs><marker id="wf-arrow-${shape}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" class="wf-arrowhead"/></marker></defs>
${lines}${boxes}</svg>`;
  return { svg, width };
}

function edgeMarkup(e: RunGraphEdge, at: Map<number, Point>, shape: 'wide' | 'tall', words: GraphWords): SafeHtml {
  const from = at.get(e.source_node_id);
  const to = at.get(e.destination_node_id);
  if (!from || !to) return html``;
  const label = (x: number, y: number) => (e.condition === 'on_success' ? html``
    : html`<text class="wf-edge-label" x="${x}" y="${y}" text-anchor="middle">${words.condition(e.condition)}</text>`);
  const arrow = `url(#wf-arrow-${shape})`;
  if (shape === 'tall') {
    const x1 = from.x + NODE_W / 2;
    const y1 = from.y + NODE_H;
    const x2 = to.x + NODE_W / 2;
    const y2 = to.y;
    const mid = (y1 + y2) / 2;
    return html`<g class="wf-edge wf-edge-${e.condition}"><path d="M${x1} ${y1}C${x1} ${mid} ${x2} ${mid} ${x2} ${y2 - 2}" marker-end="${arrow}"/>${label((x1 + x2) / 2 + 40, mid + 4)}</g>`;
  }
  const x1 = from.x + NODE_W;
  const y1 = from.y + NODE_H / 2;
  const x2 = to.x;
  const y2 = to.y + NODE_H / 2;
  const mid = (x1 + x2) / 2;
  return html`<g class="wf-edge wf-edge-${e.condition}"><path d="M${x1} ${y1}C${mid} ${y1} ${mid} ${y2} ${x2 - 2} ${y2}" marker-end="${arrow}"/>${label(mid, (y1 + y2) / 2 - 6)}</g>`;
}

function nodeMarkup(n: RunGraphNode, p: Point, words: GraphWords, taskHref: (taskId: number) => string): SafeHtml {
  const title = n.name || `${words.kind(n.kind)} ${n.id}`;
  const due = n.due && (n.status === 'delay' || n.status === 'approval')
    ? html`<text class="wf-due" x="${p.x + 12}" y="${p.y + 68}" data-due="${n.due}" data-left="${words.timeLeft}">${n.due.slice(11, 19)} UTC</text>`
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
