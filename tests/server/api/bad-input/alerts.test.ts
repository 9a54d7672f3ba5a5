import { describeBadInput } from '../../../support/bad-input.ts';
import { ALERT_WRITES, prepareAlerts } from './alerts.writes.ts';

describeBadInput('alert channels and event webhooks', ALERT_WRITES, {}, prepareAlerts);
