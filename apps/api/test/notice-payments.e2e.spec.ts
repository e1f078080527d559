import request from 'supertest';
import { startProviderSimulator, type RunningSimulator } from '@transport/provider-simulator';
import type { RunningApp } from '../src/app';
import { PrismaNoticeLedger } from '../src/persistence/prisma-notice-ledger';
import { loadApiFixture, type ApiFixture } from './support/api-fixtures';
import { eventually, startListeningApp } from './support/http-peers';
import { describeOnEachTier, openTierStore, type TierStore } from './support/test-app';

// Issue 47, item 5: paying a notice by mobile money from its public page, through the intent-first payment flow with
// the assembly as merchant and the provider simulator; the notice becomes paid only when the provider's callback or
// status check confirms it, in the same database transaction; refusals come before any prompt.

const PROVIDER_SECRET = 'provider-callback-secret';
const HTML = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
const OFFENCES = [
  {
    code: 'TF-01',
    description: 'No valid sticker',
    bylaw: 's. 12(1)',
    fine: 20_000,
    daysToPay: 14,
    surcharge: 5_000,
    daysToContest: 28,
  },
];

describeOnEachTier('paying a notice by mobile money (issue 47)', (tier) => {
  let store: TierStore;
  let running: RunningApp & { url: string };
  let simulator: RunningSimulator;
  let f: ApiFixture;
  let officer = '';
  const http = () => request(running.app.getHttpServer());
  const prisma = () => running.database.prisma;

  beforeAll(async () => {
    store = await openTierStore(tier);
    simulator = await startProviderSimulator({
      callbackSecret: PROVIDER_SECRET,
      clientId: 'client',
      clientSecret: 'secret',
      behaviour: { delayMs: 50 },
    });
    const base = store.config();
    running = await startListeningApp({
      ...base,
      provider: {
        ...base.provider,
        url: simulator.url,
        clientId: 'client',
        clientSecret: 'secret',
        callbackSecret: PROVIDER_SECRET,
        timeoutMs: 2000,
        retries: 1,
      },
      payments: { ...base.payments, unpaidFinalAfterSeconds: 0 },
      jobs: { ...base.jobs, pollSeconds: 0.5, reconcileAfterSeconds: 1, reconcileRetrySeconds: 1 },
    });
    f = await loadApiFixture(running.database);
    const user = await http()
      .post('/assembly/users/add')
      .set('Authorization', f.keys.admin)
      .send({
        assembly: f.ids.assembly,
        name: 'Kojo Taskforce',
        email: 'kojo.pay@ama.gov.gh',
        phone: '0244999501',
        role: 'enforcer',
      })
      .expect(201);
    officer = (
      await http()
        .post('/admin/keys')
        .set('Authorization', f.keys.admin)
        .send({ role: 'assembly', principal: user.body._id })
        .expect(201)
    ).body.key;
    await http()
      .post('/enforcement/catalogue')
      .set('Authorization', f.keys.admin)
      .send({ assembly: f.ids.assembly, offences: OFFENCES })
      .expect(201);
  });
  afterAll(async () => {
    // A quiet point first: no callback on its way and every payment settled, so nothing is in flight as the app closes.
    await simulator?.idle();
    if (running?.database)
      await eventually(async () => expect(await prisma().noticePayment.count({ where: { settledAt: null } })).toBe(0));
    await running?.close();
    await simulator?.close();
    await store?.dispose();
  });

  /** A new notice against the fixture's linked vehicle, with its page's token (from the driver's SMS). */
  const newNotice = async () => {
    const recorded = await http()
      .post('/enforcement/offences')
      .set('Authorization', officer)
      .send({ vehicle: f.ids.linkedVehicle, codes: ['TF-01'], driver: f.ids.workingDriver })
      .expect(201);
    const id = recorded.body._id as string;
    const sms = (await prisma().outboxMessage.findMany({ where: { to: '+233201000001' } })).find((m) =>
      m.text.includes(id),
    );
    const token = /\/n\/(\S+)$/.exec(sms?.text ?? '')?.[1];
    if (!token) throw new Error('no link in the notice SMS');
    return { id, token, description: `Road traffic notice ${id.slice(-8).toUpperCase()}, Accra Metropolitan Assembly` };
  };
  const pay = (token: string, phone: string, accept = HTML) =>
    http().post(`/n/${token}/pay`).set('Accept', accept).type('form').send({ phone });
  const page = async (token: string) => (await http().get(`/n/${token}`).expect(200)).text;
  const notice = (id: string) => prisma().notice.findUniqueOrThrow({ where: { id } });
  const paymentsOf = (noticeId: string) =>
    prisma().noticePayment.findMany({
      where: { noticeId },
      include: { transaction: true },
      orderBy: { createdAt: 'asc' },
    });

  it('pays through the provider callback: the notice is paid in the same transaction, audited twice, a receipt follows', async () => {
    const n = await newNotice();
    expect(await page(n.token)).toContain('action="' + n.token + '/pay"');
    const answer = await pay(n.token, '024 412 3450').expect(202);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.text).toContain('Check your phone to approve');
    expect(answer.text).toContain('GHS 200.00 to the number ending 450');
    expect(answer.text).not.toContain('0244123450');
    const [payment] = await eventually(async () => {
      const rows = await paymentsOf(n.id);
      expect(rows[0]?.settledAt).not.toBeNull();
      return rows;
    });
    // The callback (signed: final at once) settled it, never the page.
    const inbox = await prisma().paymentCallback.findMany({ where: { transactionId: payment.transactionId } });
    expect(inbox.map((c) => c.outcome)).toContain('applied');
    expect(payment.transaction.status).toBe('success');
    expect(Number(payment.transaction.amount)).toBe(200);
    expect([payment.amount, payment.applied, payment.excess]).toEqual([20_000, 20_000, 0]);
    // The assembly is the merchant: its own record, no merchant key's transactions.
    const merchant = await prisma().merchant.findUniqueOrThrow({ where: { id: payment.transaction.merchantId } });
    expect(merchant.assemblyId).toBe(f.ids.assembly);
    const paid = await notice(n.id);
    expect([paid.status, paid.paid]).toEqual(['paid', 20_000]);
    const audit = await prisma().auditEntry.findMany({ where: { action: 'NoticePaid' } });
    expect(audit.filter((a) => a.entityId === n.id)).toHaveLength(1);
    expect(
      audit.filter((a) => a.entity === 'vehicle' && (a.after as { notice?: string }).notice === n.id),
    ).toHaveLength(1);
    // No merchant notification for a notice payment: the notice is what it settles.
    expect(await prisma().paymentNotification.count({ where: { transactionId: payment.transactionId } })).toBe(0);
    const receipt = await eventually(async () => {
      const texts = await prisma().outboxMessage.findMany({ where: { to: '+233244123450' } });
      expect(texts).toHaveLength(1);
      return texts[0].text;
    });
    expect(receipt).toMatch(
      /^Accra Metropolitan Assembly: payment of GHS 200\.00 received for notice \w{8} \(GR 1000-24\)/,
    );
    expect(receipt).toContain('The notice is paid in full.');
    expect(await page(n.token)).toContain('Paid in full');

    // A second payment of a paid notice is refused before any prompt.
    const before = await prisma().transaction.count();
    const refused = await pay(n.token, '0244123451').expect(409);
    expect(refused.text).toContain('Nothing to pay');
    const json = await pay(n.token, '0244123451', 'application/json').expect(409);
    expect(json.body.code).toBe('NOTICE_ALREADY_PAID');
    expect(await prisma().transaction.count()).toBe(before);
  });

  it('pays through the status check when no callback comes; duplicate callbacks never count twice', async () => {
    const n = await newNotice();
    simulator.setBehaviour({ drop: true }, n.description);
    await pay(n.token, '0244123452').expect(202);
    const [payment] = await eventually(async () => {
      const rows = await paymentsOf(n.id);
      expect(rows[0]?.settledAt).not.toBeNull();
      return rows;
    });
    expect(await prisma().paymentCallback.count({ where: { transactionId: payment.transactionId } })).toBe(0);
    expect(payment.transaction.statusCheckTime).not.toBeNull();
    expect((await notice(n.id)).status).toBe('paid');

    const d = await newNotice();
    simulator.setBehaviour({ duplicates: 3, reorder: true }, d.description);
    await pay(d.token, '0244123453').expect(202);
    const [dup] = await eventually(async () => {
      const rows = await paymentsOf(d.id);
      expect(rows[0]?.settledAt).not.toBeNull();
      return rows;
    });
    await eventually(async () => expect(simulator.paymentFor(d.description)!.callbacks.length).toBeGreaterThan(3));
    await eventually(async () =>
      expect(
        (await prisma().paymentCallback.findMany({ where: { transactionId: dup.transactionId } })).every(
          (c) => c.outcome !== null,
        ),
      ).toBe(true),
    );
    const settled = await notice(d.id);
    expect([settled.status, settled.paid, settled.refundDue]).toEqual(['paid', 20_000, 0]);
    expect(await prisma().auditEntry.count({ where: { entityId: d.id, action: 'NoticePaid' } })).toBe(1);
  });

  it('answers the open payment instead of a second prompt, and a part payment leaves the surcharge owed', async () => {
    const n = await newNotice();
    // The provider confirms late (a status check, a few seconds on); meanwhile the notice passes its due date.
    simulator.setBehaviour({ drop: true }, n.description);
    await pay(n.token, '0244123454').expect(202);
    const again = await pay(n.token, '0201234567').expect(200);
    expect(again.text).toContain('A payment is already waiting for approval');
    expect(again.text).toContain('the number ending 454');
    expect(await page(n.token)).toContain('A payment prompt for GHS 200.00 was sent to the number ending 454');
    // No contest while a prompt waits (a payment confirmed on a contested notice could only be refunded): 409, nothing
    // stored; once the payment is settled or failed, the owner may contest.
    const contested = await http().post(`/n/${n.token}/contest`).field('text', 'Not my car').expect(409);
    expect(contested.body.code).toBe('NOTICE_PAYMENT_OPEN');
    expect((await notice(n.id)).status).toBe('issued');
    await prisma().notice.update({ where: { id: n.id }, data: { dueAt: new Date(Date.now() - 60_000) } });
    const [first] = await eventually(async () => {
      const rows = await paymentsOf(n.id);
      expect(rows[0]?.settledAt).not.toBeNull();
      return rows;
    });
    expect(await paymentsOf(n.id)).toHaveLength(1);
    expect([first.applied, first.excess]).toEqual([20_000, 0]);
    const part = await notice(n.id);
    expect([part.status, part.paid]).toEqual(['issued', 20_000]);
    const shown = await page(n.token);
    // The surcharge is owed now (overdue), computed by the domain, and shown.
    expect(shown).toContain('Amount due: <b>GHS 50.00</b>');
    expect(shown).toContain('Received so far: GHS 200.00; still owed: <b>GHS 50.00</b>');
    const receipt = await eventually(async () => {
      const texts = await prisma().outboxMessage.findMany({ where: { to: '+233244123454' } });
      expect(texts).toHaveLength(1);
      return texts[0].text;
    });
    expect(receipt).toContain('Still owed: GHS 50.00.');

    // Two asking at the same moment make one prompt: the other answers it.
    simulator.setBehaviour({ drop: false }, n.description);
    const count = await prisma().transaction.count();
    const both = await Promise.all([pay(n.token, '0244123454'), pay(n.token, '0244123455')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 202]);
    expect(await prisma().transaction.count()).toBe(count + 1);
    await eventually(async () => expect((await notice(n.id)).status).toBe('paid'));
    const rows = await paymentsOf(n.id);
    expect(rows.map((r) => [r.amount, r.applied])).toEqual([
      [20_000, 20_000],
      [5_000, 5_000],
    ]);
  });

  it('keeps one open payment per notice in the database: a second is NOTICE_PAYMENT_OPEN, and stores nothing', async () => {
    const n = await newNotice();
    simulator.setBehaviour({ drop: true }, n.description);
    await pay(n.token, '0244123480').expect(202);
    const [open] = await paymentsOf(n.id);
    const other = await prisma().transaction.findFirstOrThrow({ where: { id: { not: open.transactionId } } });
    await expect(
      prisma().$transaction((tx) =>
        new PrismaNoticeLedger(tx).addPayment({
          transactionId: other.id,
          noticeId: n.id,
          amount: 1,
          createdAt: new Date(),
        }),
      ),
    ).rejects.toMatchObject({ code: 'NOTICE_PAYMENT_OPEN' });
    expect(await paymentsOf(n.id)).toHaveLength(1);
    // The status check settles it; its receipt goes out (no job left running when the app closes).
    await eventually(async () =>
      expect(await prisma().outboxMessage.count({ where: { to: '+233244123480' } })).toBe(1),
    );
  });

  it('refuses forged tokens, bad numbers and cross-site forms before any prompt, and limits prompts per notice and per phone', async () => {
    const n = await newNotice();
    const before = await prisma().transaction.count();
    await pay(n.token.slice(0, -4) + (n.token.endsWith('0000') ? '1111' : '0000'), '0244123455').expect(404);
    await pay(n.id, '0244123455').expect(404);
    const json = await pay('nothing', '0244123455', 'application/json').expect(404);
    expect(json.body.code).toBe('NOT_FOUND');
    // A landline, and no number at all, are not mobile-money numbers.
    expect((await pay(n.token, '0302123456').expect(400)).text).toContain('mobile-money number');
    expect((await pay(n.token, '', 'application/json').expect(400)).body.code).toBe('INVALID_PHONE');
    await http()
      .post(`/n/${n.token}/pay`)
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ phone: '0244123455' })
      .expect(403);
    expect(await prisma().transaction.count()).toBe(before);

    // Per notice: each prompt refused by the owner (failed), the next asked with another number; the fourth is refused.
    simulator.setBehaviour({ outcome: 'failed' }, n.description);
    for (const phone of ['0244123461', '0244123462', '0244123463']) {
      await pay(n.token, phone).expect(202);
      await eventually(async () => expect((await paymentsOf(n.id)).every((p) => p.settledAt !== null)).toBe(true));
    }
    const limited = await pay(n.token, '0244123464').expect(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.text).toContain('Too many payment prompts for this notice');
    expect((await notice(n.id)).paid).toBe(0);

    // Per phone: a stranger with several notices' links cannot keep prompting one number.
    const phone = '0244123470';
    for (let i = 0; i < 3; i++) {
      const other = await newNotice();
      simulator.setBehaviour({ outcome: 'failed' }, other.description);
      await pay(other.token, phone).expect(202);
    }
    const last = await newNotice();
    const count = await prisma().transaction.count();
    expect((await pay(last.token, phone).expect(429)).text).toContain('Too many payment prompts to this phone number');
    expect(await prisma().transaction.count()).toBe(count);
  });
});
