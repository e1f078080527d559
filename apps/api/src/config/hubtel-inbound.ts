import { addressRanges, inboundPassword, int } from './env-values';

/**
 * Hubtel's requests to the USSD and inbound SMS routes (docs/ussd-sms.md): who may send them, and how much one phone
 * number may ask.
 */
export interface HubtelInboundConfig {
  /** HUBTEL_INBOUND_USERNAME / HUBTEL_INBOUND_PASSWORD: the Basic credentials Hubtel's requests must carry. */
  username: string;
  /** Unset: only loopback is served, and only outside production (the demo, tried with curl). */
  password?: string;
  /** HUBTEL_INBOUND_ADDRESSES: addresses or CIDR ranges the requests must come from (empty: any, with the password). */
  allowedAddresses: readonly string[];
  /** USSD_STEPS_PER_PHONE_PER_HOUR: requests of USSD sessions per calling number per hour. */
  ussdStepsPerPhonePerHour: number;
  /** SMS_REPLIES_PER_PHONE_PER_HOUR: answers texted to one number per hour (what is over is not answered). */
  smsRepliesPerPhonePerHour: number;
  /** VEHICLE_REPORTS_PER_PHONE_PER_DAY: reports of vehicles per calling number per day. */
  reportsPerPhonePerDay: number;
}

export function hubtelInbound(env: NodeJS.ProcessEnv): HubtelInboundConfig {
  return {
    username: env.HUBTEL_INBOUND_USERNAME || 'hubtel',
    password: inboundPassword(env, 'HUBTEL_INBOUND_PASSWORD'),
    allowedAddresses: addressRanges(env, 'HUBTEL_INBOUND_ADDRESSES'),
    ussdStepsPerPhonePerHour: int(env, 'USSD_STEPS_PER_PHONE_PER_HOUR', 60, 1, 100_000),
    smsRepliesPerPhonePerHour: int(env, 'SMS_REPLIES_PER_PHONE_PER_HOUR', 5, 1, 1000),
    reportsPerPhonePerDay: int(env, 'VEHICLE_REPORTS_PER_PHONE_PER_DAY', 5, 1, 1000),
  };
}
