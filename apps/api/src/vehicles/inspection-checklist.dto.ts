import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INSPECTION_ITEMS } from '@transport/domain';

/** The ten inspection items (the domain's INSPECTION_ITEMS, in their order), each passed (true) or failed (false). */
export class InspectionChecklistResponse {}
for (const item of INSPECTION_ITEMS) ApiProperty({ type: Boolean })(InspectionChecklistResponse.prototype, item);

/**
 * A vehicle's stored checklist: the ten items, each passed (true) or failed (false); an item absent was not recorded
 * (a vehicle imported from the original service, inspected on an older, shorter checklist). Not recorded is never a
 * pass: approving such a vehicle is refused (422 VEHICLE_INSPECTION_INCOMPLETE) until it is inspected again.
 */
export class RecordedInspectionChecklistResponse {}
for (const item of INSPECTION_ITEMS)
  ApiPropertyOptional({
    type: Boolean,
    description: 'Absent: not recorded (an older checklist, imported); never a pass.',
  })(RecordedInspectionChecklistResponse.prototype, item);
