import { dropMigratedTemplates } from './migrated-templates';

/** Drops what the global setup made for the whole run. */
export default async function globalTeardown(): Promise<void> {
  await dropMigratedTemplates();
}
