import { Header } from '@nestjs/common';

/**
 * For answers that carry a secret shown once (an API key, a signing secret, an activation key): no cache, shared or
 * private, may keep them.
 */
export const NoStore = () => Header('Cache-Control', 'no-store');
