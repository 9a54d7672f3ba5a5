import { z } from 'zod';

/** Body of PUT `/templates/{id}/description` (the template page's inline description editor). */
export const descriptionSchema = z.looseObject({ description: z.string().max(65535, 'at most 65535 characters').nullable() });
