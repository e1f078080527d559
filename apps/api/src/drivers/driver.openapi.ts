import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RecordDoc } from '../vehicles/vehicle.openapi';

const ID = { example: '65a1b2c3d4e5f60718293a4b', pattern: '^[0-9a-f]{24}$' };
const DATE = { format: 'date-time', example: '2026-11-22T08:30:00.000Z' };

export class ApprovalChecklistDoc {
  @ApiProperty() validLicense!: boolean;
  @ApiProperty() hasSmartPhone!: boolean;
  @ApiProperty() canUseMap!: boolean;
  @ApiProperty({ description: 'true: the criminal-record check was done and is clear.' }) criminalRecord!: boolean;
}

export class EmbeddedOwnerDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ description: 'Hidden from anonymous callers.' }) phone?: string;
  @ApiPropertyOptional({ description: 'Hidden from anonymous callers.' }) email?: string;
  @ApiProperty() idType!: string;
  @ApiPropertyOptional({ description: 'Hidden from anonymous callers.' }) idNumber?: string;
  @ApiProperty() verified!: boolean;
}

export class DriverDoc extends RecordDoc {
  @ApiProperty({ example: 'Kojo Antwi' }) name!: string;
  @ApiPropertyOptional({ example: '+233244555666', description: 'Hidden from anonymous callers.' }) phone?: string;
  @ApiPropertyOptional({ example: 'kojo.antwi@example.com', description: 'Hidden from anonymous callers.' }) email?: string;
  @ApiPropertyOptional({ example: 'DL-0001-2020', description: 'Hidden from anonymous callers.' }) license?: string;
  @ApiProperty({ enum: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] }) licenseClass!: string;
  @ApiProperty({ ...DATE }) licenseExpiry!: string;
  @ApiProperty({ ...DATE }) licenseIssueDate!: string;
  @ApiProperty({ enum: ['ghana_card', 'passport', 'voter_id', 'drivers_license', 'ssnit'] }) idType!: string;
  @ApiPropertyOptional({ description: 'Hidden from anonymous callers.' }) idNumber?: string;
  @ApiProperty({ enum: ['male', 'female', 'other', 'unspecified'] }) gender!: string;
  @ApiProperty() online!: boolean;
  @ApiProperty() busy!: boolean;
  @ApiProperty({ description: 'The driver has activated the account with the activation key.' }) verified!: boolean;
  @ApiProperty() approved!: boolean;
  @ApiPropertyOptional({ type: ApprovalChecklistDoc, description: 'Present once an assembly has approved the driver.' }) approvalChecklist?: ApprovalChecklistDoc;
  @ApiPropertyOptional({ example: '042917', description: 'Six digits. Only in the response to POST /drivers/add, once; only its hash is stored.' }) activationKey?: string;
  @ApiPropertyOptional({ ...DATE, description: 'Present once activated.' }) dateActivated?: string;
  @ApiPropertyOptional({ type: EmbeddedOwnerDoc, description: 'The vehicle owner, embedded.' }) ownerID?: EmbeddedOwnerDoc;
  @ApiPropertyOptional({ description: 'Hidden from anonymous callers.' }) walletAccount?: string;
  @ApiPropertyOptional({ example: 4.5, description: 'Average of 1-5 star ratings; absent before the first.' }) rating?: number;
}

export class DriverListDoc {
  @ApiProperty({ example: 200, description: 'The HTTP status, repeated (the interface carries it in the body).' }) status!: number;
  @ApiProperty({ type: [DriverDoc] }) payload!: DriverDoc[];
}

export class DriverCreatedDoc {
  @ApiProperty({ example: 201 }) status!: number;
  @ApiProperty({ type: DriverDoc, description: 'The registered driver, with `activationKey` this once.' }) payload!: DriverDoc;
}
