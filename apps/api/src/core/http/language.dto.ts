import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { LANGUAGE_CODES, LANGUAGES } from '@transport/domain';

const NAMES = LANGUAGES.map((l) => `${l.code} ${l.name}`).join(', ');

/**
 * A person's language in a request (registration or correction): one of the languages the service speaks, in any
 * letter case (libs/domain parseLanguage: 400 INVALID_LANGUAGE otherwise). Absent at registration: English.
 */
export function LanguageField(who: 'driver' | 'owner') {
  return applyDecorators(
    ApiPropertyOptional({
      enum: LANGUAGE_CODES,
      example: 'tw',
      description: `The language the ${who}'s SMS are written in (${NAMES}); any letter case. Absent at registration: en. Another value: 400 INVALID_LANGUAGE.`,
    }),
    IsOptional(),
    IsString({ message: 'language must be a string' }),
    MaxLength(10, { message: 'language must be at most 10 characters' }),
  );
}

/** A person's language in an answer. */
export function LanguageResponseField(who: 'driver' | 'owner') {
  return ApiProperty({
    enum: LANGUAGE_CODES,
    example: 'en',
    description: `The language the ${who}'s SMS are written in (${NAMES}).`,
  });
}
