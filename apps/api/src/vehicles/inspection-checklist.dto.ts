import { ApiProperty } from '@nestjs/swagger';
import { INSPECTION_ITEMS } from '@transport/domain';

/** The ten inspection items (the domain's INSPECTION_ITEMS, in their order), each passed (true) or failed (false). */
export class InspectionChecklistResponse {}
for (const item of INSPECTION_ITEMS) ApiProperty({ type: Boolean })(InspectionChecklistResponse.prototype, item);
