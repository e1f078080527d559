/** The decisions the interface document leaves open, stated once for every client. */
export const OPENAPI_DESCRIPTION = `
Back end of a road-transport platform: vehicles and their owners, drivers, assemblies, intracity trips, and the status
of mobile-money payments. The wire format is that of the platform's interface document.

**Credentials.** API keys (256 random bits, shown once, stored only as a SHA-256 hash) belong to a principal with a
role: \`admin\`, \`assembly\` (an assembly user: inspects and approves) or \`merchant\` (payments). Send the bare key in
\`Authorization\`, as the interface does, or \`Bearer <key>\`. No key, or an unknown or revoked one: 401 with
\`WWW-Authenticate\`. A valid key of a role the operation does not allow: 403. Operations 1 and 5 stay open to
anonymous callers, but anonymous callers never see personal data (see operation 5).

**Errors.** Every error is \`application/problem+json\` (RFC 9457): \`type\`, \`title\`, \`status\`, \`detail\`, a stable
\`code\` where one applies, and for validation an \`errors\` list of \`{ field, message }\`. Validation 400; missing or bad
credential 401; wrong role 403; not found 404; duplicate or concurrent change 409; body over 100 kB 413; body not JSON
415; a rule refusing a well-formed request 422. Unknown fields in bodies and queries are refused (400), never dropped.

**Lists.** Newest first (\`createdAt\`, then \`_id\`). \`limit\` is an integer from 1 to 500 (default 50). When more records
exist, a \`Link: <...>; rel="next"\` header (RFC 8288) carries an \`after=<_id>\` cursor; bodies keep the documented shape.

**Values.** Booleans in queries are \`true\` or \`false\`; ids are 24 lowercase hex characters (a well-formed id that names
nothing simply matches nothing). Money is in cedis, as JSON numbers: sent with at most two decimals (more is a 400,
never rounded); a payment's amount and fees and a trip's prices and amounts are kept exactly to six decimals and
answered with every decimal they carry (0.195, a 1.95% fee of 10.00, or a price of 12.345, imported from the original
service). Weights kg; fuel capacity
litres; distances km. Dates are ISO 8601 UTC. Phone numbers are stored as +233XXXXXXXXX; 0XXXXXXXXX is accepted.

**Records.** Every record carries \`_id\`, \`createdAt\`, \`updatedAt\` and \`__v\` (its revision, increased by one on every
change). Fields the interface marks "present once ..." are absent, not null, until then.

**Payment notifications.** When a transaction reaches its final state, the service POSTs it (the operation-9 shape) to
the merchant's \`callBackUrl\`, signed as Standard Webhooks: \`webhook-id\` (the same on every attempt; also
\`Idempotency-Key\`), \`webhook-timestamp\` (unix seconds) and
\`webhook-signature: v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>\` (the key is the base64
part of the \`whsec_\` signingSecret). Any Standard Webhooks library verifies it; refuse stale timestamps and
deduplicate on \`webhook-id\`. Any 2xx answer
delivers it; otherwise it is retried with exponential backoff for at least 24 hours (see \`GET /payment/deliveries\`).
The provider unreachable when a payment is requested: 502, nothing stored, the same request may be sent again.
`.trim();
