import type { AppConfig } from '../config';

/** What a production start must not run with, each named with the setting that fixes it. */
export function productionProblems(config: AppConfig): string[] {
  if (!config.production) return [];
  const problems: string[] = [];
  if (!config.databaseUrl)
    problems.push(
      'DATABASE_URL is unset: the data would live in an embedded database in DATA_DIR, lost with the container',
    );
  if (config.seedDemo) problems.push('SEED_DEMO=true would load demo data and demo API keys');
  if (!config.people.cookieSecure)
    problems.push('COOKIE_SECURE=false would send dashboard session cookies over plain http');
  if (!config.provider.url)
    problems.push('PAYMENT_PROVIDER_URL is unset: payments would go to the in-process stand-in, which charges nobody');
  else if (!config.provider.url.startsWith('https://'))
    problems.push(
      `PAYMENT_PROVIDER_URL must be https (got ${config.provider.url}): a real provider is; the simulator is not`,
    );
  if (config.activation.secrets.length === 0)
    problems.push(
      "ACTIVATION_KEY_SECRETS is unset: drivers' activation keys would be hashed with a secret kept in DATA_DIR beside the data",
    );
  if (config.certificates.signingKeys.length === 0)
    problems.push(
      'CERTIFICATE_SIGNING_KEYS is unset: vehicle certificates would be signed with a key kept in DATA_DIR beside the data',
    );
  if (!config.sms)
    problems.push(
      "SMS_GATEWAY_URL is unset: drivers' activation keys and dashboard password links would sit in the outbox table, never sent",
    );
  else if (!config.sms.url.startsWith('https://'))
    problems.push(
      `SMS_GATEWAY_URL must be https (got ${config.sms.url}): the gateway's credentials and the links travel to it`,
    );
  if (config.trustProxy === true)
    problems.push(
      'TRUST_PROXY=true would let any client choose its address with X-Forwarded-For (every per-address limit counts it): set the number of proxies in front (e.g. 1) or their addresses',
    );
  if (!config.publicBaseUrl.startsWith('https://'))
    problems.push(
      `PUBLIC_BASE_URL must be https (got ${config.publicBaseUrl}): the provider's callbacks carry their tokens in it`,
    );
  const storage = config.objectStorage;
  if (storage.kind === 's3' && storage.endpoint?.startsWith('http://'))
    problems.push(
      `S3_ENDPOINT must be https (got ${storage.endpoint}): photos and their presigned URLs would travel in the clear`,
    );
  return problems;
}
