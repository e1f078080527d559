import type { OpenAPIObject } from '@nestjs/swagger';
import { VIEWERS, VIEWS, type ViewedResource } from '../auth/views';

/** The response schemas that carry a viewed record, and which record. */
const VIEWED_SCHEMAS: Readonly<Record<string, ViewedResource>> = {
  VehicleResponse: 'vehicle',
  DriverResponse: 'driver',
  OwnerResponse: 'owner',
  DriverOwnerResponse: 'owner',
  TripResponse: 'trip',
  AuditEntryResponse: 'auditEntry',
};

/**
 * One schema per record serves every role, so it may require only the fields every role that reads the record sees
 * (core/auth/views.ts): a field some views leave out is optional, and the schema says which. Roles whose view is
 * empty never get the record at all (their routes refuse them) and do not narrow it. Changes the document in place.
 */
export function declareViews(document: OpenAPIObject): OpenAPIObject {
  for (const [name, resource] of Object.entries(VIEWED_SCHEMAS)) {
    const schema = document.components?.schemas?.[name] as { required?: string[]; description?: string } | undefined;
    if (!schema?.required) continue;
    const partial = VIEWERS.map((viewer) => VIEWS[resource][viewer]).filter(
      (view): view is Exclude<typeof view, 'all'> => view !== 'all' && Object.keys(view).length > 0,
    );
    const seenByAll = schema.required.filter((field) => partial.every((view) => field in view));
    const narrowed = schema.required.filter((field) => !seenByAll.includes(field));
    if (narrowed.length === 0) continue;
    schema.required = seenByAll;
    schema.description = [
      schema.description,
      `Always present for roles that see the whole record (admin, assembly keys and sessions); a role whose view leaves ` +
        `them out (docs/api.md, "Who sees what") gets no ${narrowed.map((f) => `\`${f}\``).join(', ')}.`,
    ]
      .filter(Boolean)
      .join(' ');
  }
  return document;
}
