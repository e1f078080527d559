import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { ID } from '../core/http/dto-support';

export class ReminderPreferenceBody {
  @ApiProperty({
    description:
      'true: the person asked to stop the SMS reminders before their documents lapse (none is sent from now on, queued ones included); false: remind them again.',
    example: true,
  })
  @IsBoolean({ message: 'stop must be true or false' })
  stop!: boolean;
}

export class ReminderPreferenceResponse {
  @ApiProperty({ ...ID }) _id!: string;
  @ApiProperty({ description: 'Whether reminders are stopped for this person.', example: true })
  remindersStopped!: boolean;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'When they asked to stop (null: reminded).',
    example: '2026-11-26T09:00:00.000Z',
  })
  remindersStoppedAt!: string | null;
}
