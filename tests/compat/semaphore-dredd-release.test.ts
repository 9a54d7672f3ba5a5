import { describeDreddSuite } from './dredd/dredd-suite.ts';

// The 2.16 release's document (Semaphore commit cbd5620246aa) with that commit's hooks.
describeDreddSuite('release');
