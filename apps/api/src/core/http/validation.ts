import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppError } from '../errors';
import type { ProblemField } from './problem';

function flatten(errors: ValidationError[], parent = ''): ProblemField[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const messages = Object.values(e.constraints ?? {});
    // A missing value broke every constraint of its field ("must be at most 100 characters", "must be a string"),
    // which sent a newcomer to fix the wrong thing: it is reported once, as required (with the field's own wording
    // when it has one, such as the search's "query is required: ...").
    // A property that may not be sent at all ("should not exist") says so, whatever its value.
    const forbidden = e.constraints !== undefined && 'whitelistValidation' in e.constraints;
    if ((e.value === undefined || e.value === null) && messages.length > 0 && !e.children?.length && !forbidden)
      return [
        {
          field,
          // A field that may be absent but not null says so in its own words (its isDefined message).
          message:
            (e.value === null ? e.constraints?.isDefined : undefined) ??
            messages.find((m) => /\bis required\b/.test(m)) ??
            `${field} is required`,
        },
      ];
    const own = messages.map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Every request body and query through class-validator: unknown fields are refused (never silently dropped), and
 * failures become one 400 problem listing each field and what is wrong with it.
 */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The value is read (was it sent at all?) but never answered back.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const fields = flatten(errors);
      const detail =
        fields.length === 1 ? `${fields[0].field}: ${fields[0].message}` : `${fields.length} fields are invalid`;
      return new AppError('VALIDATION_FAILED', detail, { errors: fields });
    },
  });
}
