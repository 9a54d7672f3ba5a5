import { describe, expect, it } from 'vitest';
import {
  checkLaunch, initialLaunchValues, launchBody, launchOptions, launchTemplateId, offeredInventories, projectIdOfPath, type LaunchTemplate, type LaunchMessage,
} from '../../src/console/launch-model.ts';
import { taskInputSchema } from '../../src/server/domain/tasks/task.ts';
import { LOG_ROW_PX, scrollPosition, scrollTopForLine } from '../../src/islands/task-log-model.ts';

const template = (fields: Partial<LaunchTemplate> = {}): LaunchTemplate => ({
  id: 7, name: 'Deploy', app: 'ansible', type: '', build_template_id: null, allow_override_args_in_task: false,
  allow_override_branch_in_task: false, arguments: null, git_branch: 'main', repository_id: 1, inventory_id: 2,
  survey_vars: [], task_params: {}, ...fields,
});
const en: LaunchMessage = (key, vars = {}) => ({
  required: `${vars.title} is required`, mustBeInteger: `${vars.title} must be integer`,
  buildVersionRequired: 'Build version is required', debugLevelRange: 'Debug level must be between 1 and 6',
}[key]);

describe('task launch form model (seed 001 §5)', () => {
  it('checks survey answers in the seed wording: "{title} is required", "{title} must be integer"', () => {
    const t = template({ survey_vars: [
      { name: 'target', title: 'Target', type: 'enum', required: true, values: [{ name: 'A', value: 'a' }] },
      { name: 'count', title: 'Count', type: 'int' },
      { name: 'note', type: 'string', required: true },
    ] });
    const values = initialLaunchValues(t);
    expect(checkLaunch(t, values, en)).toEqual({ var_target: 'Target is required', var_note: 'note is required' });
    values.vars = { target: 'a', count: '1.5', note: 'x' };
    expect(checkLaunch(t, values, en)).toEqual({ var_count: 'Count must be integer' });
    values.vars.count = '12';
    expect(checkLaunch(t, values, en)).toEqual({});
  });

  it('requires a build version for a deploy and passes it as build_task_id', () => {
    const t = template({ type: 'deploy', build_template_id: 3 });
    const values = initialLaunchValues(t);
    expect(checkLaunch(t, values, en)).toEqual({ build_task_id: 'Build version is required' });
    values.build_task_id = '42';
    expect(checkLaunch(t, values, en)).toEqual({});
    expect(launchBody(t, values)).toMatchObject({ template_id: 7, build_task_id: 42 });
  });

  it('sends survey answers as environment, secrets apart, and only the overrides the template allows', () => {
    const t = template({
      allow_override_args_in_task: true, allow_override_branch_in_task: true, arguments: '["-v"]',
      survey_vars: [{ name: 'region', type: 'string', default_value: 'eu' }, { name: 'token', type: 'secret', default_value: 'never shown' }],
      task_params: { allow_override_limit: true, allow_override_inventory: true, allow_debug: true },
    });
    const values = initialLaunchValues(t);
    expect(values.vars).toEqual({ region: 'eu', token: '' });
    expect(values.arguments).toBe('-v');
    expect(values.debug_level).toBe('4');
    Object.assign(values, {
      message: 'go', git_branch: 'feature/x', inventory_id: '5', arguments: '-v\n--check\n', limit: 'web1, web2', tags: 'deploy',
      debug: true, debug_level: '6', dry_run: true,
    });
    values.vars.token = 's3cret';
    const body = launchBody(t, values);
    expect(body).toEqual({
      template_id: 7, message: 'go', environment: '{"region":"eu"}', secret: '{"token":"s3cret"}', git_branch: 'feature/x', inventory_id: 5,
      arguments: '["-v","--check"]', params: { dry_run: true, diff: false, skip_galaxy_install: false, debug: true, debug_level: 6, limit: ['web1', 'web2'] },
    });
    expect(taskInputSchema.safeParse(body).success).toBe(true);
    values.debug_level = '9';
    expect(checkLaunch(t, values, en)).toEqual({ debug_level: 'Debug level must be between 1 and 6' });
  });

  it('offers Terraform its own options and no ansible ones', () => {
    const t = template({ app: 'terraform', task_params: { allow_auto_approve: true, allow_override_limit: true, allow_debug: true } });
    const o = launchOptions(t);
    expect(o).toMatchObject({ terraform: true, autoApprove: true, ansible: false, debug: false, limit: false });
    const values = { ...initialLaunchValues(t), plan: true, auto_approve: true, dry_run: true };
    expect(launchBody(t, values).params).toEqual({ plan: true, destroy: false, upgrade: false, reconfigure: false, auto_approve: true });
  });

  it('offers only the inventories the template allows, or all when it lists none', () => {
    const all = [{ id: 2, name: 'Own' }, { id: 3, name: 'Staging' }, { id: 4, name: 'Production' }];
    expect(offeredInventories(template({ allowed_inventories: [4] }), all)).toEqual([{ id: 4, name: 'Production' }]);
    expect(offeredInventories(template({ allowed_inventories: [] }), all)).toEqual(all);
    expect(offeredInventories(template(), all)).toEqual(all);
  });

  it('reads ?new_task= and the project of a path strictly', () => {
    expect(launchTemplateId(new URL('http://x/project/3/history?new_task=12'))).toBe(12);
    expect(launchTemplateId(new URL('http://x/project/3/history?new_task=1e3'))).toBe(0);
    expect(projectIdOfPath('/project/3/templates/4')).toBe(3);
    expect(projectIdOfPath('/project/new')).toBe(0);
  });
});

describe('jumping to a line of the virtual log', () => {
  it('puts the line on screen for short and million-line logs', () => {
    for (const total of [50, 30_000, 1_000_000]) {
      for (const index of [0, 17, Math.floor(total / 2), total - 1]) {
        const top = scrollTopForLine(index, 440, total);
        const { topLine } = scrollPosition(top, 440, total);
        expect(index).toBeGreaterThanOrEqual(Math.floor(topLine));
        expect(index).toBeLessThan(topLine + 440 / LOG_ROW_PX);
      }
    }
  });
});
