import type { ExecutionContext } from '@nestjs/common';
import type { AppConfig } from '../config';
import { HubtelInboundGuard } from './hubtel-inbound.guard';

const hubtel = (over: Partial<AppConfig['hubtel']> = {}) => ({
  username: 'hubtel',
  allowedAddresses: [],
  ussdStepsPerPhonePerHour: 60,
  smsRepliesPerPhonePerHour: 5,
  reportsPerPhonePerDay: 5,
  ...over,
});
const guard = (config: Partial<AppConfig>) =>
  new HubtelInboundGuard({ production: false, hubtel: hubtel(), ...config } as AppConfig);
const from = (ip: string, authorization?: string) =>
  ({ switchToHttp: () => ({ getRequest: () => ({ ip, headers: { authorization } }) }) }) as ExecutionContext;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('HubtelInboundGuard', () => {
  it('serves the demo from loopback only when no password is configured', () => {
    const demo = guard({});
    expect(demo.canActivate(from('127.0.0.1'))).toBe(true);
    expect(demo.canActivate(from('::1'))).toBe(true);
    expect(demo.canActivate(from('::ffff:127.0.0.1'))).toBe(true);
    expect(() => demo.canActivate(from('203.0.113.9'))).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }));
  });

  it('serves nobody in production without a password, loopback included', () => {
    expect(() => guard({ production: true }).canActivate(from('127.0.0.1'))).toThrow(
      expect.objectContaining({ code: 'UNAUTHORIZED' }),
    );
  });

  it('takes the configured Basic credentials, and only them, from anywhere or from the allowed ranges', () => {
    const password = 'sixteen-characters!';
    const open = guard({ hubtel: hubtel({ password }) });
    expect(open.canActivate(from('203.0.113.9', basic('hubtel', password)))).toBe(true);
    for (const wrong of [
      basic('hubtel', 'wrong'),
      basic('other', password),
      basic('hubtel', ''),
      'Bearer x',
      undefined,
    ])
      expect(() => open.canActivate(from('127.0.0.1', wrong))).toThrow(
        expect.objectContaining({ code: 'UNAUTHORIZED' }),
      );
    expect(() => open.canActivate(from('127.0.0.1', `Basic ${Buffer.from('no-colon').toString('base64')}`))).toThrow();
    const ranged = guard({ hubtel: hubtel({ password, allowedAddresses: ['203.0.113.0/24', '2001:db8::/32'] }) });
    expect(ranged.canActivate(from('203.0.113.200', basic('hubtel', password)))).toBe(true);
    expect(ranged.canActivate(from('2001:db8::5', basic('hubtel', password)))).toBe(true);
    expect(() => ranged.canActivate(from('198.51.100.1', basic('hubtel', password)))).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
    expect(() => ranged.canActivate(from('not-an-ip', basic('hubtel', password)))).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
  });
});
