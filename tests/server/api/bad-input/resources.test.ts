import { describeBadInput } from '../../../support/bad-input.ts';
import { RESOURCE_WRITES } from './resources.writes.ts';

describeBadInput('keys, repositories, inventories and variable groups', RESOURCE_WRITES);
