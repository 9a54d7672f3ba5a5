import { describe, it } from 'vitest';
import { DEMO, createSchedule, editVariableGroup, journey, runAndRead, setUpFirstHour } from './support/first-hour-steps.ts';

// Issue 29's "Done when" journey at 1280 px (the steps: support/first-hour-steps.ts; the phone: first-hour-journey-phone.test.ts).
setUpFirstHour();

describe('the first hour of a new user, in Chromium', () => {
  it('at 1280 px: demo project, each demo template read tab by tab, a variable group, a schedule, a key, an inventory, a long-named template', async () => {
    await journey(1280, async (page, projectId) => {
      for (const expected of DEMO) await runAndRead(page, projectId, expected, 1280);
      await editVariableGroup(page, projectId, 1280);
      await createSchedule(page, projectId, 1280);
    });
  }, 600_000);
});
