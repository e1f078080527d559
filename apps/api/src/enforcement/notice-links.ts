import { OBJECT_ID_PATTERN, type SecretHasher } from '@transport/domain';

/**
 * The public notice page's token: the notice's id and an HMAC-SHA256 of it under the service's keyed secret (the
 * activation secrets, rotated the same way: the first signs, every one listed still verifies). Unguessable without
 * the secret (256 bits), and it names one notice only. Written `<id>.<secret id>.<hex digest>`.
 */
export function noticeToken(hasher: SecretHasher, noticeId: string): string {
  const [, secretId, digest] = hasher.hash(`notice:${noticeId}`).split('$');
  return `${noticeId}.${secretId}.${digest}`;
}

/** The notice a token names, or undefined for anything not made by `noticeToken` with a current secret. */
export function noticeOfToken(hasher: SecretHasher, token: string): string | undefined {
  const parts = token.length <= 200 ? token.split('.') : [];
  if (parts.length !== 3 || !OBJECT_ID_PATTERN.test(parts[0])) return undefined;
  return hasher.verify(`notice:${parts[0]}`, `hmac$${parts[1]}$${parts[2]}`) ? parts[0] : undefined;
}
