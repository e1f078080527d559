import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ASSEMBLY_ROLES, LANGUAGE_CODES, OBJECT_ID_PATTERN } from '@transport/domain';
import { ID, idMessage } from '../core/http/dto-support';
import type { SessionInfo } from './people.service';

// Requests and responses of people's sign-in (the assembly dashboard), declared once.

export class SignInBody {
  @ApiProperty({ example: 'abena.mensah@ama.gov.gh' })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;
  @ApiProperty({ example: 'correct horse battery staple', maxLength: 200 })
  @IsString()
  @MinLength(1, { message: 'password must not be empty' })
  @MaxLength(200)
  password!: string;
}

export class PasswordResetBody {
  @ApiProperty({ example: 'abena.mensah@ama.gov.gh' })
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  email!: string;
}

export class SetPasswordBody {
  @ApiProperty({ description: "The token of the invitation or reset link (the link's `token` parameter)." })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{43}$/, { message: 'token must be the token of a password link' })
  token!: string;
  @ApiProperty({
    description: 'At least 12 characters, at most 200; not one repeated character; not containing the email.',
    minLength: 12,
    maxLength: 200,
  })
  @IsString()
  @MaxLength(200, { message: 'password must be at most 200 characters long' })
  password!: string;
}

export class ChangePasswordBody {
  @ApiProperty({ description: 'The password the person signs in with now.', maxLength: 200 })
  @IsString()
  @MinLength(1, { message: 'currentPassword must not be empty' })
  @MaxLength(200, { message: 'currentPassword must be at most 200 characters long' })
  currentPassword!: string;
  @ApiProperty({
    description:
      'At least 12 characters, at most 200; not one repeated character; not containing the email; not the current one.',
    minLength: 12,
    maxLength: 200,
  })
  @IsString()
  @MaxLength(200, { message: 'newPassword must be at most 200 characters long' })
  newPassword!: string;
}

export class InviteBody {
  @ApiProperty({ ...ID, description: 'The assembly user to invite.' })
  @Matches(OBJECT_ID_PATTERN, idMessage)
  user!: string;
}

export class InvitationResponse {
  @ApiProperty({ description: 'Until when the link works.' }) expiresAt!: Date;
}

export class SignedInPersonResponse {
  @ApiProperty(ID) _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: ASSEMBLY_ROLES }) role!: string;
  @ApiProperty(ID) assembly!: string;
  @ApiProperty() assemblyName!: string;
  @ApiProperty({
    enum: LANGUAGE_CODES,
    description: 'The language the dashboard speaks to them in (ISO 639: English, Twi, Ga, Ewe, Hausa, Dagbani).',
    example: 'tw',
  })
  language!: string;
}

export class LanguageBody {
  @ApiProperty({
    enum: LANGUAGE_CODES,
    description: 'A language the service speaks (any letter case); another is 400 `INVALID_LANGUAGE`.',
    example: 'ee',
  })
  @IsString()
  @MaxLength(20)
  language!: string;
}

export class SessionResponse {
  @ApiProperty({ type: SignedInPersonResponse }) person!: SignedInPersonResponse;
  @ApiProperty({ description: 'Send it back in the `X-CSRF-Token` header of every change made with this session.' })
  csrfToken!: string;
  @ApiProperty({ description: 'The session ends at this instant unless another request comes first.' })
  idleExpiresAt!: Date;
  @ApiProperty({ description: 'The session ends at this instant whatever the activity.' }) endsAt!: Date;
  @ApiProperty({
    description:
      'How long the session lasts without a request (SESSION_IDLE_MINUTES), in seconds: a client warns before it ends, and keeps it while its person works.',
    example: 1800,
  })
  idleSeconds!: number;
}

export function toSessionResponse(info: SessionInfo): SessionResponse {
  const { person } = info;
  return {
    person: {
      _id: person.id,
      name: person.name,
      email: person.email,
      role: person.role,
      assembly: person.assemblyId,
      assemblyName: person.assemblyName,
      language: person.language,
    },
    csrfToken: info.csrfToken,
    idleExpiresAt: info.idleExpiresAt,
    endsAt: info.endsAt,
    idleSeconds: info.idleSeconds,
  };
}
