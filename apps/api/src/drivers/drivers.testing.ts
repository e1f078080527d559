import type { Actor, DriverRegistration } from '@transport/domain';
import type { fakePorts } from '../core/testing/fixtures';
import { DriversService } from './drivers.service';

type FakePorts = ReturnType<typeof fakePorts>;

/** The drivers use cases on the fakes of every port (for the specs of any feature that needs drivers). */
export function driversOnFakes(p: FakePorts): DriversService {
  return new DriversService(p.uow, p.stores, p.clock, p.ids, p.random, p.hasher, p.limits, p.messages, p.activation);
}

/**
 * Registers a driver and reads the activation key from the text message the driver's phone got (the only place it
 * goes), for specs that go on to activate the driver.
 */
export async function registerAndReadKey(
  p: Pick<FakePorts, 'messages'>,
  drivers: DriversService,
  input: DriverRegistration,
  actor: Actor,
) {
  const { driver, activationKeySent } = await drivers.register(input, actor, '198.51.100.1');
  const message = p.messages.sent.at(-1);
  const key = message && message.to === driver.phone ? /(\d{6})/.exec(message.text)?.[1] : undefined;
  if (!activationKeySent || !key) throw new Error("no activation key reached the driver's phone");
  return { ...driver, activationKey: key };
}
