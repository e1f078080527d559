import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { AppError } from '../errors';
import type { ProblemField } from './problem';

function flatten(errors: ValidationError[], parent = ''): ProblemField[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
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
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const fields = flatten(errors);
      const detail =
        fields.length === 1 ? `${fields[0].field}: ${fields[0].message}` : `${fields.length} fields are invalid`;
      return new AppError('VALIDATION_FAILED', detail, { errors: fields });
    },
  });
}
