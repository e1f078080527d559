import type { Clock, IdGenerator } from '@transport/domain';
import type { SecretHasher } from '@transport/domain';
import { PlainTextHasher, SequentialIdGenerator } from '@transport/domain/testing';
import type { AppConfig } from '../config';
import type { EventLog, MessageSender, PeopleDirectory, RateLimits } from '../core/ports';
import { PeopleService } from './people.service';

/** An event log that keeps nothing, for specs that do not read it. */
export const quietEvents: EventLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The people use cases on fakes, each port given by name (ids: sequential, events: quiet, unless given). */
export function peopleOnFakes(p: {
  people: PeopleDirectory;
  messages: MessageSender;
  limits: RateLimits;
  config: AppConfig;
  clock: Clock;
  ids?: IdGenerator;
  events?: EventLog;
  hasher?: SecretHasher;
}): PeopleService {
  return new PeopleService(
    p.people,
    p.messages,
    p.limits,
    p.config,
    p.clock,
    p.ids ?? new SequentialIdGenerator(),
    p.events ?? quietEvents,
    p.hasher ?? new PlainTextHasher(),
  );
}
