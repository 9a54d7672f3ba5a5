import { setUpLook } from './support/look-world.ts';
import { describeLayoutInLanguages, EAST } from './support/look-languages.ts';

// Every screen at 1280 and 375 px in the languages of eastern Europe and eastern Asia (the rest:
// look-languages-west.test.ts; the checks: support/look-languages.ts).
setUpLook();
describeLayoutInLanguages(EAST);
