import { describeBadInput } from '../../../support/bad-input.ts';
import { ROLE_WRITES, SERVER_ROLE_WRITES, prepareRoles } from './roles.writes.ts';

describeBadInput('custom project roles', ROLE_WRITES, {}, prepareRoles);
describeBadInput('server-wide roles', SERVER_ROLE_WRITES, {}, prepareRoles);
