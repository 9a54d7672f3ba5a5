import { setUpLook } from './support/look-world.ts';
import { describeAxeChecks } from './support/axe-checks.ts';

// axe-core on every page in the dark theme (the other theme: accessibility-light.test.ts;
// keyboard, dialogs, forms: accessibility-behaviour.test.ts).
setUpLook();
describeAxeChecks('dark');
