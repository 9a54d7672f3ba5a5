import { z } from 'zod';
import { INT32_MAX } from '../../http/validation.ts';

/** Body of POST/PUT `…/terraform/aliases`: the login_password key terraform authenticates with. */
export const aliasInputSchema = z.strictObject({ auth_key_id: z.number().int().positive().max(INT32_MAX, 'too large').nullable().optional() });
