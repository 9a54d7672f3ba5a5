import { describeBadInput } from '../../../support/bad-input.ts';
import { prepareSecretStorages, SECRET_STORAGE_WRITES } from './secret-storages.writes.ts';

describeBadInput('secret storages', SECRET_STORAGE_WRITES, {}, prepareSecretStorages);
