import type { BadInputContext, WriteRoute } from '../../../support/bad-input.ts';

const i = ({ w, ids }: BadInputContext) => `/api/project/${w.projectId}/integrations/${ids.integration}`;
const integration = ({ ids }: BadInputContext) => ({ name: 'I', template_id: ids.template, auth_method: 'none', searchable: false, task_params: {} });
const integrationFields = { name: 'string', template_id: 'number', auth_method: 'string', searchable: 'boolean', task_params: 'object' } as const;
const matcher = () => ({ name: 'm', match_type: 'header', method: 'equals', key: 'k', value: 'v' });
const matcherFields = { name: 'string', match_type: 'string', method: 'string', key: 'string', value: 'string' } as const;
const value = () => ({ name: 'v', value_source: 'header', key: 'k', variable: 'V', variable_type: 'environment' });
const valueFields = { name: 'string', value_source: 'string', key: 'string', variable: 'string', variable_type: 'string' } as const;
const limits = { key: 1024, value: 65535 };

/**
 * Every POST/PUT with a body of integrations. The alias POSTs take no body (they ignore one) and
 * the public webhook takes any body by design (it is a delivery), so they are not listed.
 */
export const INTEGRATION_WRITES: WriteRoute[] = [
  { route: 'POST /api/project/{id}/integrations', path: (x) => `/api/project/${x.w.projectId}/integrations`, valid: integration, fields: integrationFields },
  { route: 'PUT /api/project/{id}/integrations/{i}', path: i, valid: integration, fields: integrationFields },
  { route: 'POST /api/project/{id}/integrations/{i}/matchers', path: (x) => `${i(x)}/matchers`, valid: matcher, fields: matcherFields, maxLength: limits },
  { route: 'PUT /api/project/{id}/integrations/{i}/matchers/{m}', path: (x) => `${i(x)}/matchers/${x.ids.matcher}`, valid: matcher, fields: matcherFields, maxLength: limits },
  { route: 'POST /api/project/{id}/integrations/{i}/values', path: (x) => `${i(x)}/values`, valid: value, fields: valueFields, maxLength: limits },
  { route: 'PUT /api/project/{id}/integrations/{i}/values/{v}', path: (x) => `${i(x)}/values/${x.ids.value}`, valid: value, fields: valueFields, maxLength: limits },
];

