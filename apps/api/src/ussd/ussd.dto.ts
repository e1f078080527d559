import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Hubtel Programmable Services' request (documented only: the controller reads it in any letter case). */
export class HubtelUssdRequestBody {
  @ApiProperty({ enum: ['initiation', 'response', 'release', 'timeout'], example: 'initiation' }) Type!: string;
  @ApiProperty({ description: 'What the user typed (on initiation, the USSD string dialled).', example: '1' })
  Message!: string;
  @ApiProperty({ example: '8d440a43a98b4614b9df22b79c8190b8' }) SessionId!: string;
  @ApiProperty({ example: '233246912184' }) Mobile!: string;
  @ApiPropertyOptional({ description: 'What the last answer set, sent back once.', example: 'en|menu|' })
  ClientState?: string;
  @ApiPropertyOptional({ description: 'A string or a number.', example: '1' }) Sequence?: string;
  @ApiPropertyOptional({ example: '713*42' }) ServiceCode?: string;
  @ApiPropertyOptional({ example: 'mtn' }) Operator?: string;
}

export class HubtelUssdResponseBody {
  @ApiProperty() SessionId!: string;
  @ApiProperty({ enum: ['response', 'release'], description: 'response: wait for input; release: end the session.' })
  Type!: 'response' | 'release';
  @ApiProperty({ description: 'The screen, at most 182 characters.' }) Message!: string;
  @ApiProperty({ example: 'Transport registry' }) Label!: string;
  @ApiProperty({ description: "The session's place, sent back by Hubtel with the next step." }) ClientState!: string;
  @ApiProperty({ enum: ['input', 'display'] }) DataType!: 'input' | 'display';
  @ApiProperty({ enum: ['text', ''] }) FieldType!: 'text' | '';
}

export class InboundSmsBody {
  @ApiProperty({ example: '233246912184' }) From!: string;
  @ApiPropertyOptional({ example: '1402' }) To?: string;
  @ApiProperty({ description: 'The text (also read as Content or Fulltext).', example: 'CHECK GR 1234-20' })
  Message!: string;
}

export class InboundSmsAnswer {
  @ApiProperty({ enum: ['check', 'stop', 'start', 'help'] }) command!: 'check' | 'stop' | 'start' | 'help';
  @ApiProperty({ description: 'Whether an answer was texted (false: over the limits, or not sent).' })
  replied!: boolean;
}
