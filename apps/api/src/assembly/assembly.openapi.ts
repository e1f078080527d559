import { ApiProperty } from '@nestjs/swagger';
import { RecordDoc } from '../vehicles/vehicle.openapi';

const ID = { example: '65a1b2c3d4e5f60718293a4b', pattern: '^[0-9a-f]{24}$' };

export class RegionDoc {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ example: 'Ashanti' }) name!: string;
  @ApiProperty({ ...ID, description: 'The country record.' }) country!: string;
}

export class AssemblyDoc extends RecordDoc {
  @ApiProperty({ example: 'Kumasi Metropolitan Assembly' }) name!: string;
  @ApiProperty({ type: RegionDoc }) region!: RegionDoc;
  @ApiProperty({ example: 'AK-039-5028', description: 'GhanaPostGPS address.' }) digitalAddress!: string;
  @ApiProperty({ enum: ['metropolitan', 'municipal', 'district'] }) type!: string;
}

export class AssemblyUserDoc extends RecordDoc {
  @ApiProperty({ ...ID, description: 'The assembly the user works for.' }) assembly!: string;
  @ApiProperty({ example: 'Abena Mensah' }) name!: string;
  @ApiProperty({ example: 'abena.mensah@ama.gov.gh' }) email!: string;
  @ApiProperty({ example: '+233244000111' }) phone!: string;
  @ApiProperty({ enum: ['inspector', 'approver', 'admin'] }) role!: string;
}
