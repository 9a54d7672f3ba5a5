import { describeBadInput } from '../../../support/bad-input.ts';
import { INVITE_WRITES, prepareInvites } from './invites.writes.ts';

describeBadInput('user options and project invitations', INVITE_WRITES, {}, prepareInvites);
