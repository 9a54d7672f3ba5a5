import { setUpLook } from './support/look-world.ts';
import { describeLayoutInLanguages, WEST } from './support/look-languages.ts';

// Every screen at 1280 and 375 px in English and the languages of western Europe (the rest:
// look-languages-east.test.ts; the checks: support/look-languages.ts).
setUpLook();
describeLayoutInLanguages(WEST);
