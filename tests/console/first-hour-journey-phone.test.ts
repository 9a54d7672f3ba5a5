import { describe, it } from 'vitest';
import { DEMO, editVariableGroup, journey, runAndRead, setUpFirstHour } from './support/first-hour-steps.ts';

// Issue 29's "Done when" journey at 375 px (the steps: support/first-hour-steps.ts; the desktop: first-hour-journey.test.ts).
setUpFirstHour();

describe('the first hour of a new user, in Chromium', () => {
  it('at 375 px: demo project, Ping Site read tab by tab, a variable group, a key, an inventory, a long-named template', async () => {
    await journey(375, async (page, projectId) => {
      await runAndRead(page, projectId, DEMO[0]!, 375);
      await editVariableGroup(page, projectId, 375);
    });
  }, 300_000);
});
