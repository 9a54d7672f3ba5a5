import { seesTemplate, type TemplateScope } from '../templates/template-visibility.ts';

/**
 * What a member who does not see a node's template reads of that node (issue 52): its place in
 * the graph stays (edges name it), its template, name, note and parameters do not.
 */
function redactNode<N extends { template_id: number | null }>(node: N, scope: TemplateScope): N {
  if (node.template_id === null || seesTemplate(scope, node.template_id)) return node;
  return { ...node, template_id: null, name: '', ...('note' in node ? { note: '' } : {}), ...('task_params' in node ? { task_params: {} } : {}) };
}

/** A workflow (or a version's definition) as the scope lets it be seen. */
export function redactWorkflow<W extends { nodes: { template_id: number | null }[] }>(workflow: W, scope: TemplateScope): W {
  return scope === null ? workflow : { ...workflow, nodes: workflow.nodes.map((n) => redactNode(n, scope)) };
}

/** A run's details: a hidden template's node is redacted and its task left out. */
export function redactRunDetails<R extends { nodes: { node: { template_id: number | null }; task: unknown }[] }>(details: R, scope: TemplateScope): R {
  if (scope === null) return details;
  return {
    ...details,
    nodes: details.nodes.map((n) => (n.node.template_id === null || seesTemplate(scope, n.node.template_id) ? n : { ...n, node: redactNode(n.node, scope), task: null })),
  };
}
