import { badRequest } from '../../http/errors.ts';

/** A node as the graph logic sees it (saved rows and run snapshots alike). */
export interface GraphNode {
  id: number;
  kind: 'task' | 'approval' | 'delay' | 'note';
  name: string;
  template_id: number | null;
  convergence_mode: 'all' | 'any';
  delay_seconds: number;
  approval_timeout: number;
}

export interface GraphEdge {
  id?: number;
  source_node_id: number;
  destination_node_id: number;
  condition: 'on_success' | 'on_failure' | 'always';
}

export interface Graph<N extends GraphNode = GraphNode, E extends GraphEdge = GraphEdge> {
  nodes: N[];
  edges: E[];
}

/** How a node named in an error reads: its name, else its kind and id. */
export function nodeLabel(node: Pick<GraphNode, 'id' | 'kind' | 'name'>): string {
  return node.name ? `node "${node.name}" (id ${node.id})` : `${node.kind} node ${node.id}`;
}

/**
 * The checks a workflow must pass to be saved (Semaphore's editor runs the same): at least one
 * node, every edge between two nodes of the graph, notes without edges, complete task, delay
 * and approval nodes, exactly one start node (no incoming edge), no cycle. The first problem is
 * a 400 naming the node; `problemsOf` lists them all for the editor's Problems panel.
 * @example checkGraph({ nodes: [{ id: 1, kind: 'task', template_id: 3, ... }], edges: [] });
 */
export function checkGraph(graph: Graph): void {
  const first = problemsOf(graph)[0];
  if (first) throw badRequest(first.message, first.node_id === null ? {} : { node_id: first.node_id });
}

export interface GraphProblem {
  node_id: number | null;
  message: string;
}

/** Every problem of a graph, in the order the checks run; empty when it may be saved. */
export function problemsOf(graph: Graph): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const add = (node: GraphNode | null, message: string) => problems.push({ node_id: node?.id ?? null, message: node ? `${nodeLabel(node)}: ${message}` : message });
  if (!graph.nodes.length) add(null, 'nodes: a workflow needs at least one node');
  const byId = new Map<number, GraphNode>();
  for (const node of graph.nodes) {
    if (byId.has(node.id)) add(node, 'two nodes share this id');
    byId.set(node.id, node);
  }
  graph.edges.forEach((edge, i) => {
    for (const end of ['source_node_id', 'destination_node_id'] as const) {
      if (!byId.has(edge[end])) add(null, `edges[${i}].${end}: ${edge[end]} is not a node of this workflow`);
    }
    if (edge.source_node_id === edge.destination_node_id && byId.has(edge.source_node_id)) add(byId.get(edge.source_node_id)!, 'a connection from a node to itself is a cycle');
  });
  for (const node of graph.nodes) problems.push(...nodeProblems(node, graph.edges));
  const working = graph.nodes.filter((n) => n.kind !== 'note');
  const starts = working.filter((n) => !graph.edges.some((e) => e.destination_node_id === n.id));
  if (graph.nodes.length && !starts.length) add(null, 'nodes: no start node (every node has an incoming connection)');
  for (const extra of starts.slice(1)) add(extra, `a second start node: only ${nodeLabel(starts[0]!)} may have no incoming connection`);
  const cyclic = findCycleNode(working, graph.edges);
  if (cyclic) add(cyclic, 'part of a cycle');
  return problems;
}

function nodeProblems(node: GraphNode, edges: GraphEdge[]): GraphProblem[] {
  const problems: string[] = [];
  if (node.kind === 'note') {
    if (edges.some((e) => e.source_node_id === node.id || e.destination_node_id === node.id)) problems.push('a note has no connections');
  } else if (node.kind === 'task') {
    if (!node.template_id) problems.push('choose a template (template_id)');
  } else if (node.kind === 'delay') {
    if (!Number.isInteger(node.delay_seconds) || node.delay_seconds < 1) problems.push('delay_seconds: at least 1');
  } else if (node.kind === 'approval') {
    if (!Number.isInteger(node.approval_timeout) || node.approval_timeout < 0) problems.push('approval_timeout: 0 (none) or more seconds');
  }
  return problems.map((message) => ({ node_id: node.id, message: `${nodeLabel(node)}: ${message}` }));
}

/** A node on a cycle (iterative depth-first search, so a long chain cannot overflow the stack), or null. */
function findCycleNode(nodes: GraphNode[], edges: GraphEdge[]): GraphNode | null {
  const next = new Map<number, number[]>();
  for (const e of edges) next.set(e.source_node_id, [...(next.get(e.source_node_id) ?? []), e.destination_node_id]);
  const state = new Map<number, 1 | 2>();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const root of nodes) {
    if (state.has(root.id)) continue;
    const stack: [number, number][] = [[root.id, 0]];
    state.set(root.id, 1);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const children = next.get(top[0]) ?? [];
      if (top[1] >= children.length) {
        state.set(top[0], 2);
        stack.pop();
        continue;
      }
      const child = children[top[1]++]!;
      if (state.get(child) === 1) return byId.get(child) ?? null;
      if (!state.has(child) && byId.has(child)) {
        state.set(child, 1);
        stack.push([child, 0]);
      }
    }
  }
  return null;
}

/** Where a node of a run stands: not reached, working (task, approval, delay), or ended. */
export type NodeState = 'pending' | 'active' | 'success' | 'failed' | 'stopped' | 'skipped';

export interface RunPlan {
  /** nodes whose start is due now, in graph order */
  ready: number[];
  /** nothing is working and nothing more will start */
  finished: boolean;
  /** a node failed and no connection took the failure (on_failure, always) */
  failed: boolean;
}

/**
 * What a run does next, from the states of the nodes it reached (`reached`; the rest are not
 * started). A connection is live when its source ended the way its condition asks (on_success:
 * success; on_failure: failed or stopped; always: either), dead when the source ended otherwise
 * or will never run. Convergence `all` starts a node when every incoming connection is live and
 * skips it when one is dead; `any` starts it at the first live one and skips it when all are
 * dead. Skips spread, so a branch not taken ends too.
 * @example planRun(graph, new Map([[1, 'success']])) // { ready: [2], finished: false, failed: false }
 */
export function planRun(graph: Graph, reached: ReadonlyMap<number, NodeState>): RunPlan {
  const working = graph.nodes.filter((n) => n.kind !== 'note');
  const states = new Map<number, NodeState>();
  const ready: number[] = [];
  const incoming = (id: number) => graph.edges.filter((e) => e.destination_node_id === id);
  for (const node of topologicalOrder(working, graph.edges)) {
    const known = reached.get(node.id);
    if (known) {
      states.set(node.id, known);
      continue;
    }
    const edges = incoming(node.id);
    const verdict = edges.length ? converge(node.convergence_mode, edges.map((e) => edgeState(e, states.get(e.source_node_id) ?? 'pending'))) : 'ready';
    if (verdict === 'ready') ready.push(node.id);
    states.set(node.id, verdict === 'skip' ? 'skipped' : 'pending');
  }
  const busy = [...states.values()].some((s) => s === 'active');
  const waiting = [...states.entries()].some(([id, s]) => s === 'pending' && !ready.includes(id));
  const failed = working.some((node) => {
    const s = states.get(node.id);
    if (s !== 'failed' && s !== 'stopped') return false;
    return !graph.edges.some((e) => e.source_node_id === node.id && edgeState(e, s) === 'live');
  });
  return { ready, finished: !busy && !ready.length && !waiting, failed };
}

/** Whether a connection carries its source's end on: live, dead, or not known yet. */
export function edgeState(edge: GraphEdge, source: NodeState): 'live' | 'dead' | 'pending' {
  if (source === 'pending' || source === 'active') return 'pending';
  if (source === 'skipped') return 'dead';
  const ok = source === 'success';
  if (edge.condition === 'always') return 'live';
  return (edge.condition === 'on_success') === ok ? 'live' : 'dead';
}

function converge(mode: string, edges: ('live' | 'dead' | 'pending')[]): 'ready' | 'skip' | 'wait' {
  if (mode === 'any') {
    if (edges.includes('live')) return 'ready';
    return edges.includes('pending') ? 'wait' : 'skip';
  }
  if (edges.includes('dead')) return 'skip';
  return edges.includes('pending') ? 'wait' : 'ready';
}

/** Nodes sources first (Kahn); a saved graph has no cycle, so every node is listed. */
export function topologicalOrder<N extends GraphNode>(nodes: N[], edges: GraphEdge[]): N[] {
  const indegree = new Map(nodes.map((n) => [n.id, 0]));
  for (const e of edges) if (indegree.has(e.destination_node_id)) indegree.set(e.destination_node_id, indegree.get(e.destination_node_id)! + 1);
  const queue = nodes.filter((n) => indegree.get(n.id) === 0);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const order: N[] = [];
  while (queue.length) {
    const node = queue.shift()!;
    order.push(node);
    for (const e of edges) {
      if (e.source_node_id !== node.id || !indegree.has(e.destination_node_id)) continue;
      const left = indegree.get(e.destination_node_id)! - 1;
      indegree.set(e.destination_node_id, left);
      if (left === 0) queue.push(byId.get(e.destination_node_id)!);
    }
  }
  return order;
}
