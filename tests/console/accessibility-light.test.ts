import { setUpLook } from './support/look-world.ts';
import { describeAxeChecks } from './support/axe-checks.ts';

// axe-core on every page in the light theme (the other theme: accessibility-dark.test.ts;
// keyboard, dialogs, forms: accessibility-behaviour.test.ts).
setUpLook();
describeAxeChecks('light');
