import { describeDreddSuite } from './dredd/dredd-suite.ts';

// The develop branch's document with the develop hooks, as a build without the PRO module runs them.
describeDreddSuite('develop');
