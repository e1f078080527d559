import { appOnTier } from './support/app-on-tier';
import { describeOnEachTier } from './support/test-app';

const PER_ACCOUNT = 10;
const PER_ADDRESS = 40;

// Behind one load balancer (TRUST_PROXY=1), as deploy/ and compose*.yaml run the service: the balancer appends the
// address it saw to X-Forwarded-For, and only that last entry is the client's. These requests play both parts.
describeOnEachTier('the sign-in limits behind a proxy', (tier) => {
  const { http } = appOnTier(tier, {
    fixture: true,
    config: (config) => ({
      ...config,
      trustProxy: 1,
      people: { ...config.people, signInPerAccount: PER_ACCOUNT, signInPerAddress: PER_ADDRESS },
    }),
  });
  /** A sign-in that reached the service through the balancer from `client`, carrying the entries it chose itself. */
  const signIn = (client: string, email: string, forged: string[] = []) =>
    http()
      .post('/auth/sign-in')
      .set('X-Forwarded-For', [...forged, client].join(', '))
      .send({ email, password: 'not-the-password-at-all' });

  it('counts the address the balancer saw: entries a client prepends to X-Forwarded-For do not give it new budgets', async () => {
    const client = '203.0.113.7';
    for (let i = 0; i < PER_ADDRESS; i++) {
      // Another made-up address and another account every time: only the address limit can stop these.
      const res = await signIn(client, `nobody-${i}@ama.gov.gh`, [`198.51.100.${i + 1}`, `10.0.${i}.1`]);
      expect(res.status).toBe(401);
    }
    const refused = await signIn(client, 'somebody-else@ama.gov.gh', ['192.0.2.200']);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Too many sign-in attempts from this address/);
    // Another client behind the same balancer has its own budget.
    expect((await signIn('203.0.113.8', 'nobody-0@ama.gov.gh', [client])).status).toBe(401);
  });

  it('checks and counts the per-account limit in one step: a burst of wrong passwords gets no more tries than the limit', async () => {
    const attempts = await Promise.all(Array.from({ length: 30 }, () => signIn('198.51.100.77', 'abena@ama.gov.gh')));
    const statuses = attempts.map((res) => res.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(PER_ACCOUNT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - PER_ACCOUNT);
    for (const refused of attempts.filter((res) => res.status === 429))
      expect(refused.body.detail).toMatch(/^Too many failed sign-ins for this account from this address/);
  });
});
