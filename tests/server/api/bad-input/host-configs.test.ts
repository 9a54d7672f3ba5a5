import { describeBadInput } from '../../../support/bad-input.ts';
import { HOST_CONFIG_WRITES, prepareHostConfigs } from './host-configs.writes.ts';

describeBadInput('host configs', HOST_CONFIG_WRITES, {}, prepareHostConfigs);
