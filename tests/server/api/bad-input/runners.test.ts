import { describeBadInput } from '../../../support/bad-input.ts';
import { BAD_INPUT_REGISTRATION_TOKEN, RUNNER_WRITES } from './runners.writes.ts';

describeBadInput('runners', RUNNER_WRITES, { SEMAPHORE_RUNNER_REGISTRATION_TOKEN: BAD_INPUT_REGISTRATION_TOKEN }, async (db, x) => {
  const insert = async (projectId: number | null) => (await db.insertInto('runner').values({
    project_id: projectId, name: 'bad-input', webhook: '', max_parallel_tasks: 0, active: 1, tags: '[]', token_hash: null,
    registration_token_hash: null, public_key: null, touched: null, cleaning_requested: null, created: new Date().toISOString(),
  }).returning('id').executeTakeFirstOrThrow()).id;
  return { projectRunner: await insert(x.w.projectId), globalRunner: await insert(null) };
});
