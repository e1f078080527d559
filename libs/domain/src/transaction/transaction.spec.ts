import fc from 'fast-check';
import { DomainError } from '../shared/domain-error';
import { days, ports, T0 } from '../testing/fixtures';
import {
  DOCUMENTED_RESPONSE_CODES,
  parseCallbackPayload,
  responseVerdict,
  type CallbackPayload,
  type RequestInfo,
} from './provider-messages';
import {
  answeredValue,
  isFinal,
  isOpen,
  MAX_ANOMALIES,
  MAX_ANOMALY_DETAIL,
  Transaction,
  TRANSACTION_STATUSES,
  UNPAID_IS_FINAL_AFTER_MS,
  type ApplyOutcome,
  type PaymentRequestInput,
} from './transaction';

const MERCHANT = '65a0000000000000000000f1';
const input = (over: Partial<PaymentRequestInput> = {}): PaymentRequestInput => ({
  merchantId: MERCHANT,
  amount: 25_500_000,
  description: 'Trip payment',
  reference: 'TRIP-0001',
  callBackUrl: 'https://merchant.example.com/cb',
  customerName: 'Akua',
  customerPhone: '0244987654',
  customerEmail: 'AKUA@example.com',
  requestType: 'mobile_money',
  ...over,
});
/** Every transaction here is the first one its fresh id generator makes: this is its id and ClientReference. */
const REF = ports().ids.next();
const requestInfo = (code = '0001', charges: unknown = 0.05): RequestInfo => ({
  Message: 'Transaction pending. Expect callback request for final state',
  ResponseCode: code,
  Data: { TransactionId: 't-1', ClientReference: REF, Amount: 25.5, Charges: charges as number },
});
const callback = (code: string, over: Partial<CallbackPayload['Data']> = {}): CallbackPayload => ({
  ResponseCode: code,
  Message: code === '0000' ? 'success' : 'failed',
  Data: {
    Amount: 25.5,
    Charges: 0.05,
    AmountAfterCharges: 25.45,
    AmountCharged: 25.5,
    Description: 'ok',
    ClientReference: REF,
    TransactionId: 't-1',
    ExternalTransactionId: 'e-1',
    OrderId: 'o-1',
    ...over,
  },
});
const pending = () => Transaction.request(input(), requestInfo(), ports().ids, T0);

describe('Transaction statuses', () => {
  it('calls requesting and pending open, success and failed final: each status is exactly one of the two', () => {
    expect(TRANSACTION_STATUSES.filter(isOpen)).toEqual(['requesting', 'pending']);
    expect(TRANSACTION_STATUSES.filter(isFinal)).toEqual(['success', 'failed']);
  });
});

describe('Transaction request', () => {
  it('is pending when the provider accepts (0001), keeping requestInfo as received and the fees exactly (millionths of a cedi)', () => {
    const tx = pending();
    const s = tx.toState();
    expect(s).toMatchObject({
      status: 'pending',
      fees: 50_000,
      amount: 25_500_000,
      customerPhone: '+233244987654',
      customerEmail: 'akua@example.com',
      needsStatusCheck: false,
      anomalies: [],
    });
    expect(s.requestInfo).toEqual(requestInfo());
    expect(s).toMatchObject({ providerReference: REF, id: REF, providerTransactionId: 't-1' });
    expect(s).not.toHaveProperty('callBackInfo');
    expect(tx.pullEvents()).toEqual([
      expect.objectContaining({ type: 'TransactionRequested', data: { status: 'requesting' } }),
      expect.objectContaining({ type: 'TransactionProviderAnswered', data: { responseCode: '0001' } }),
    ]);
  });

  it('is stored requesting before the provider is asked, with the platform-unique ClientReference', () => {
    const tx = Transaction.intend(input(), ports().ids, T0);
    expect(tx.toState()).toMatchObject({ status: 'requesting', providerReference: REF, fees: 0 });
    expect(tx.toState()).not.toHaveProperty('requestInfo');
    expect(tx.applyRequestAnswer(requestInfo(), days(1))).toEqual({ result: 'accepted' });
    expect(tx.applyRequestAnswer(requestInfo('2001'), days(1))).toEqual({ result: 'duplicate' });
    expect(tx.status).toBe('pending');
  });

  it('keeps an unanswered request requesting, for the status API to settle once', () => {
    const tx = Transaction.intend(input(), ports().ids, T0);
    expect(tx.requestUnanswered(days(1), 'timeout '.repeat(100))).toEqual({ result: 'deferred' });
    expect(tx.requestUnanswered(days(1), 'again')).toEqual({ result: 'duplicate' });
    expect(tx.toState()).toMatchObject({ status: 'requesting', needsStatusCheck: true });
    const event = tx.pullEvents()[1];
    expect(String(event.data?.reason).length).toBe(MAX_ANOMALY_DETAIL);
    expect(pending().requestUnanswered(days(1), 'late')).toEqual({ result: 'duplicate' });
  });

  it('flags an answer that names another ClientReference, or another provider transaction than a status check did', () => {
    const tx = Transaction.intend(input(), ports().ids, T0);
    const other = { ...requestInfo(), Data: { ...requestInfo().Data, ClientReference: 'SOMEONE-ELSE' } };
    expect(tx.applyRequestAnswer(other, days(1))).toEqual({ result: 'anomaly', reason: 'reference_mismatch' });
    expect(tx.toState()).toMatchObject({ status: 'pending', needsStatusCheck: true });

    const checked = Transaction.intend(input(), ports().ids, T0);
    checked.applyStatusCheck({ state: 'pending', transactionId: 't-9', raw: {} }, days(1));
    expect(checked.applyRequestAnswer(requestInfo(), days(1))).toEqual({
      result: 'anomaly',
      reason: 'provider_id_mismatch',
    });
  });

  it('keeps an answer that arrives after a callback settled it, changing nothing else', () => {
    const tx = Transaction.intend(input(), ports().ids, T0);
    tx.applyCallback(callback('0000'), days(1), true);
    expect(tx.applyRequestAnswer(requestInfo(), days(2))).toEqual({ result: 'accepted' });
    expect(tx.toState()).toMatchObject({ status: 'success', requestInfo: requestInfo() });
  });

  it('is failed when the provider refuses, and success when it confirms at once', () => {
    expect(Transaction.request(input(), requestInfo('2001'), ports().ids, T0).status).toBe('failed');
    expect(Transaction.request(input(), requestInfo('0000'), ports().ids, T0).status).toBe('success');
  });

  it('asks only for numbers of a Ghanaian mobile-money network, for mobile money', () => {
    expect(() => Transaction.checkRequest(input({ customerPhone: '0311234567' }))).toThrow(/mobile-money number/);
    expect(() => Transaction.checkRequest(input({ customerPhone: '+447700900123' }))).toThrow(/mobile-money number/);
    expect(
      Transaction.checkRequest(input({ customerPhone: '+447700900123', requestType: 'online_checkout' })).customerPhone,
    ).toBe('+447700900123');
  });

  it('stays pending and asks the status API when the provider answers a code it does not document as final', () => {
    for (const code of ['0005', '9999']) {
      expect(Transaction.request(input(), requestInfo(code), ports().ids, T0).toState()).toMatchObject({
        status: 'pending',
        needsStatusCheck: true,
      });
    }
  });

  it('keeps a fee with a third decimal exactly (1.95% of 10.00), reading float noise to the millionth', () => {
    expect(Transaction.request(input(), requestInfo('0001', 0.195), ports().ids, T0).toState().fees).toBe(195_000);
    // 10.01 x 1.95% as a float: 0.19519499999999998 is the provider's arithmetic, not money.
    expect(Transaction.request(input(), requestInfo('0001', 10.01 * 0.0195), ports().ids, T0).toState().fees).toBe(
      195_195,
    );
  });

  it('takes no fees from a missing or nonsensical Charges', () => {
    expect(Transaction.request(input(), requestInfo('0001', Infinity), ports().ids, T0).toState().fees).toBe(0);
    expect(Transaction.request(input(), requestInfo('0001', 30_000_000), ports().ids, T0).toState().fees).toBe(0);
    expect(Transaction.request(input(), requestInfo('0001', null), ports().ids, T0).toState().fees).toBe(0);
    expect(Transaction.request(input(), requestInfo('0001', -3), ports().ids, T0).toState().fees).toBe(0);
    expect(
      Transaction.request(input(), { Message: 'x', ResponseCode: '0001' } as RequestInfo, ports().ids, T0).toState()
        .fees,
    ).toBe(0);
  });

  it('allows an empty customer name and email', () => {
    const s = Transaction.request(
      input({ customerName: undefined, customerEmail: '' }),
      requestInfo(),
      ports().ids,
      T0,
    ).toState();
    expect(s).toMatchObject({ customerName: '', customerEmail: '' });
  });

  it.each([
    ['a reference with spaces', { reference: 'a b' }, 'reference'],
    ['a non-string reference', { reference: 5 as never }, 'reference'],
    ['an empty description', { description: ' ' }, 'description'],
    ['a non-string description', { description: null as never }, 'description'],
    ['an ftp callBackUrl', { callBackUrl: 'ftp://x.example.com' }, 'callBackUrl'],
    ['a non-string callBackUrl', { callBackUrl: 1 as never }, 'callBackUrl'],
    ['a very long customer name', { customerName: 'x'.repeat(121) }, 'customerName'],
    ['a zero amount', { amount: 0 }, 'amount'],
    ['a fractional number of millionths', { amount: 1.5 }, 'amount'],
    ['a third decimal (new payments are whole pesewas)', { amount: 10_125_000 }, 'amount'],
    ['a bad merchant', { merchantId: 'm' }, 'merchant'],
    ['an unknown request type', { requestType: 'cheque' }, 'requestType'],
  ])('refuses %s', (_name, over, field) => {
    let error: DomainError | undefined;
    try {
      Transaction.checkRequest(input(over));
    } catch (e) {
      error = e as DomainError;
    }
    expect(error?.field).toBe(field);
  });

  it('tells an identical repeated request from a different one', () => {
    const tx = pending();
    expect(tx.matchesRequest(input({ customerEmail: 'akua@EXAMPLE.com' }))).toBe(true);
    expect(tx.matchesRequest(input({ amount: 25_510_000 }))).toBe(false);
  });
});

describe('Values moved from the original service', () => {
  it("answers the original's spelling while the field holds what it was folded to, and its own once it moved on", () => {
    const imported = Transaction.restore({
      ...pending().toState(),
      originalValues: {
        status: { original: 'Pending', normalised: 'pending' },
        requestType: { original: 'direct', normalised: 'mobile_money' },
      },
    });
    expect([answeredValue(imported.toState(), 'status'), answeredValue(imported.toState(), 'requestType')]).toEqual([
      'Pending',
      'direct',
    ]);
    imported.applyCallback(callback('0000'), days(1), true);
    const settled = imported.toState();
    expect(settled.originalValues?.requestType?.original).toBe('direct');
    expect([answeredValue(settled, 'status'), answeredValue(settled, 'requestType')]).toEqual(['success', 'direct']);
    // A transaction made here has none: its own values.
    expect(answeredValue(pending().toState(), 'requestType')).toBe('mobile_money');
  });
});

describe('Transaction callbacks', () => {
  it('moves pending to success on 0000 with matching amount and reference, storing callBackInfo and time', () => {
    const tx = pending();
    expect(tx.applyCallback(callback('0000'), days(1), true)).toEqual({ result: 'applied', status: 'success' });
    expect(tx.toState()).toMatchObject({
      status: 'success',
      callBackInfo: callback('0000'),
      callBackTime: days(1),
      updatedAt: days(1),
    });
  });

  it('moves pending to failed on any other final code', () => {
    const tx = pending();
    expect(tx.applyCallback(callback('2001'), days(1), true)).toEqual({ result: 'applied', status: 'failed' });
  });

  it('treats a repeated final callback as a duplicate that changes nothing, not even updatedAt', () => {
    const tx = pending();
    tx.applyCallback(callback('0000'), days(1), true);
    const before = tx.toState();
    expect(tx.applyCallback(callback('0000'), days(2), true)).toEqual({ result: 'duplicate' });
    expect(tx.applyCallback(callback('0005'), days(2), true)).toEqual({ result: 'duplicate' });
    expect(tx.toState()).toEqual(before);
  });

  it('records a conflicting final callback as an anomaly and keeps the status', () => {
    const tx = pending();
    tx.applyCallback(callback('0000'), days(1), true);
    expect(tx.applyCallback(callback('2001'), days(2), true)).toEqual({
      result: 'anomaly',
      reason: 'conflicting_final_state',
    });
    const s = tx.toState();
    expect(s.status).toBe('success');
    expect(s.needsStatusCheck).toBe(false);
    expect(s.anomalies).toEqual([expect.objectContaining({ reason: 'conflicting_final_state', source: 'callback' })]);
  });

  it('does not move to success on a wrong amount or reference; flags it for a status check', () => {
    const tx = pending();
    expect(tx.applyCallback(callback('0000', { Amount: 1 }), days(1), true)).toEqual({
      result: 'anomaly',
      reason: 'amount_mismatch',
    });
    expect(tx.applyCallback(callback('0000', { ClientReference: 'OTHER' }), days(1), true)).toEqual({
      result: 'anomaly',
      reason: 'reference_mismatch',
    });
    // The merchant's own reference is not the provider's: a callback naming it is someone else's payment.
    expect(tx.applyCallback(callback('0000', { ClientReference: 'TRIP-0001' }), days(1), true).result).toBe('anomaly');
    expect(tx.applyCallback(callback('0000', { TransactionId: 'other-provider-id' }), days(1), true)).toEqual({
      result: 'anomaly',
      reason: 'provider_id_mismatch',
    });
    expect(tx.toState()).toMatchObject({ status: 'pending', needsStatusCheck: true });
    expect(tx.toState()).not.toHaveProperty('callBackInfo');
  });

  it("fails closed: a callback whose caller did not say it was authenticated is not the provider's word", () => {
    const tx = pending();
    // A JavaScript caller (or an old one) that leaves the argument out: confirmed first, as if unsigned.
    const untold = tx.applyCallback as (payload: CallbackPayload, at: Date) => ApplyOutcome;
    expect(untold.call(tx, callback('0000'), days(1))).toEqual({ result: 'deferred' });
    expect(tx.toState()).toMatchObject({ status: 'pending', needsStatusCheck: true });
    expect(tx.toState()).not.toHaveProperty('callBackInfo');
  });

  it('confirms an unauthenticated final callback with the status API before it is final, never showing it before', () => {
    const tx = pending();
    expect(tx.applyCallback(callback('0000'), days(1), false)).toEqual({ result: 'deferred' });
    expect(tx.toState()).toMatchObject({ status: 'pending', needsStatusCheck: true });
    expect(tx.toState()).not.toHaveProperty('callBackInfo');
    expect(tx.toState()).not.toHaveProperty('callBackTime');
    const waiting = [{ payload: callback('0000'), receivedAt: days(1) }];
    expect(tx.applyCallback(callback('0000'), days(2), false, waiting)).toEqual({ result: 'duplicate' });
    expect(tx.applyCallback(callback('2001'), days(2), false, waiting)).toEqual({
      result: 'anomaly',
      reason: 'conflicting_callback',
    });
    // A forged 0000 for a payment the provider reports failed ends failed, and is never shown.
    expect(tx.applyStatusCheck({ state: 'failed', raw: {} }, days(3), undefined, waiting)).toEqual({
      result: 'applied',
      status: 'failed',
    });
    expect(tx.toState()).not.toHaveProperty('callBackInfo');
  });

  it('shows a waiting callback as callBackInfo once the status API says the same about the same payment', () => {
    const tx = pending();
    const stale = { payload: callback('0005'), receivedAt: days(1) };
    const wrongId = { payload: callback('0000', { TransactionId: 'other' }), receivedAt: days(1) };
    const wrongAmount = { payload: callback('0000', { Amount: 1 }), receivedAt: days(1) };
    const otherPayment = { payload: callback('0000', { ClientReference: 'x' }), receivedAt: days(1) };
    const good = { payload: callback('0000'), receivedAt: days(2) };
    const unnamed = { payload: callback('0000', { TransactionId: '' }), receivedAt: days(1) };
    tx.applyCallback(good.payload, days(2), false, [stale]);
    expect(
      tx.applyStatusCheck({ state: 'paid', raw: {} }, days(3), undefined, [
        stale,
        good,
        wrongId,
        wrongAmount,
        otherPayment,
      ]),
    ).toEqual({ result: 'applied', status: 'success' });
    expect(tx.toState()).toMatchObject({ status: 'success', callBackInfo: good.payload, callBackTime: days(2) });
    const failed = pending();
    const no = { payload: callback('2001'), receivedAt: days(1) };
    failed.applyStatusCheck({ state: 'failed', raw: {} }, days(3), undefined, [unnamed, no]);
    expect(failed.toState()).toMatchObject({ status: 'failed', callBackInfo: no.payload, callBackTime: days(1) });
    const unknownId = Transaction.intend(input(), ports().ids, T0);
    unknownId.applyStatusCheck({ state: 'paid', raw: {} }, days(3), undefined, [unnamed]);
    expect(unknownId.toState()).toMatchObject({ status: 'success', callBackInfo: unnamed.payload });
  });

  it('takes the provider id from the first authenticated callback when the request went unanswered', () => {
    const tx = Transaction.intend(input(), ports().ids, T0);
    tx.requestUnanswered(days(1), 'timeout');
    expect(tx.applyCallback(callback('2001'), days(1), true)).toEqual({ result: 'applied', status: 'failed' });
    expect(tx.toState().providerTransactionId).toBe('t-1');
    const unnamed = Transaction.intend(input(), ports().ids, T0);
    unnamed.applyCallback(callback('2001', { TransactionId: '' }), days(1), true);
    expect(unnamed.toState()).not.toHaveProperty('providerTransactionId');
  });

  it('leaves 0005 pending and marks it for a status check, once', () => {
    const tx = pending();
    expect(tx.applyCallback(callback('0005'), days(1), true)).toEqual({ result: 'deferred' });
    expect(tx.toState()).toMatchObject({ status: 'pending', needsStatusCheck: true });
    expect(tx.applyCallback(callback('0005'), days(2), true)).toEqual({ result: 'duplicate' });
    expect(tx.pullEvents().map((e) => e.type)).toEqual([
      'TransactionRequested',
      'TransactionProviderAnswered',
      'TransactionStateUnknown',
    ]);
  });

  it('keeps only the latest anomalies', () => {
    const tx = pending();
    for (let i = 0; i < MAX_ANOMALIES + 5; i++)
      tx.applyCallback(callback('0000', { ClientReference: `X${i}` }), days(1), true);
    expect(tx.toState().anomalies).toHaveLength(MAX_ANOMALIES);
    expect(tx.toState().anomalies[MAX_ANOMALIES - 1].detail).toContain(`X${MAX_ANOMALIES + 4}`);
    tx.applyCallback(callback('0000', { ClientReference: 'Y'.repeat(100_000) }), days(1), true);
    expect(tx.toState().anomalies.at(-1)?.detail).toHaveLength(MAX_ANOMALY_DETAIL);
  });
});

describe('Transaction status checks', () => {
  const raw = { status: 'Paid' };
  it('applies a paid or failed status to a pending transaction without inventing callBackInfo', () => {
    const tx = pending();
    expect(tx.applyStatusCheck({ state: 'paid', amount: 25.5, clientReference: REF, raw }, days(1))).toEqual({
      result: 'applied',
      status: 'success',
    });
    expect(tx.toState()).toMatchObject({ statusCheckInfo: raw, statusCheckTime: days(1), needsStatusCheck: false });
    expect(tx.toState()).not.toHaveProperty('callBackInfo');
    const failed = pending();
    expect(failed.applyStatusCheck({ state: 'failed', raw }, days(1))).toEqual({ result: 'applied', status: 'failed' });
  });

  it('defers while the provider still says pending or unknown', () => {
    const tx = pending();
    expect(tx.applyStatusCheck({ state: 'pending', raw }, days(1))).toEqual({ result: 'deferred' });
    expect(tx.applyStatusCheck({ state: 'unknown', raw }, days(2))).toEqual({ result: 'duplicate' });
  });

  const soon = new Date(T0.getTime() + 60_000);
  const late = new Date(T0.getTime() + UNPAID_IS_FINAL_AFTER_MS);

  it('reads Unpaid as still open at first, and as failed once the prompt has long expired; Refunded as failed', () => {
    expect(pending().applyStatusCheck({ state: 'unpaid', raw }, soon)).toEqual({ result: 'deferred' });
    expect(pending().applyStatusCheck({ state: 'unpaid', raw }, late)).toEqual({ result: 'applied', status: 'failed' });
    expect(pending().applyStatusCheck({ state: 'refunded', raw }, soon)).toEqual({
      result: 'applied',
      status: 'failed',
    });
  });

  it('fails a request the provider never received only after the same delay; never one it accepted', () => {
    const requesting = () => Transaction.intend(input(), ports().ids, T0);
    expect(requesting().applyStatusCheck({ state: 'not_found', raw }, soon)).toEqual({ result: 'deferred' });
    expect(requesting().applyStatusCheck({ state: 'not_found', raw }, late)).toEqual({
      result: 'applied',
      status: 'failed',
    });
    expect(pending().applyStatusCheck({ state: 'not_found', raw }, late)).toEqual({ result: 'deferred' });
    const accepted = requesting();
    expect(accepted.applyStatusCheck({ state: 'unpaid', transactionId: 't-1', raw }, soon)).toEqual({
      result: 'accepted',
    });
    expect(accepted.toState()).toMatchObject({ status: 'pending', providerTransactionId: 't-1' });
    expect(requesting().applyStatusCheck({ state: 'unknown', raw }, soon)).toEqual({ result: 'deferred' });
  });

  it('flags a status answer naming another provider transaction', () => {
    const tx = pending();
    expect(tx.applyStatusCheck({ state: 'paid', transactionId: 't-2', raw }, days(1))).toEqual({
      result: 'anomaly',
      reason: 'provider_id_mismatch',
    });
    expect(tx.applyStatusCheck({ state: 'paid', transactionId: 't-1', raw }, days(1)).result).toBe('applied');
  });

  it('follows the callback rules for mismatches and late answers', () => {
    const tx = pending();
    expect(tx.applyStatusCheck({ state: 'paid', amount: 2, raw }, days(1))).toEqual({
      result: 'anomaly',
      reason: 'amount_mismatch',
    });
    expect(tx.applyStatusCheck({ state: 'paid', clientReference: 'NOPE', raw }, days(1))).toEqual({
      result: 'anomaly',
      reason: 'reference_mismatch',
    });
    expect(tx.applyStatusCheck({ state: 'paid', raw }, days(1))).toEqual({ result: 'applied', status: 'success' });
    expect(tx.applyStatusCheck({ state: 'paid', raw }, days(2))).toEqual({ result: 'duplicate' });
    expect(tx.applyStatusCheck({ state: 'pending', raw }, days(2))).toEqual({ result: 'duplicate' });
    expect(tx.applyStatusCheck({ state: 'failed', raw }, days(2))).toEqual({
      result: 'anomaly',
      reason: 'conflicting_final_state',
    });
    expect(tx.applyCallback(callback('2001'), days(2), true).result).toBe('anomaly');
  });

  it('restores from state without sharing the anomaly list', () => {
    const original = pending();
    original.applyCallback(callback('0000', { ClientReference: 'X' }), days(1), true);
    const state = original.toState();
    const copy = Transaction.restore({ ...state, version: 4 });
    copy.applyCallback(callback('0000', { ClientReference: 'Y' }), days(2), true);
    expect(state.anomalies).toHaveLength(1);
    expect([copy.version, typeof copy.id]).toEqual([4, 'string']);
  });
});

describe('Callback payload parsing', () => {
  it('accepts the provider body and fills omitted descriptive fields', () => {
    expect(parseCallbackPayload(callback('0000'))).toEqual(callback('0000'));
    // Fields the service does not read are kept as received.
    const dated = { ...callback('0000'), Extra: 1, Data: { ...callback('0000').Data, PaymentDate: '2024-05-14' } };
    expect(parseCallbackPayload(dated)).toEqual(dated);
    const sparse = parseCallbackPayload({ ResponseCode: '2001', Data: { ClientReference: 'R' } });
    expect(sparse).toEqual({
      ResponseCode: '2001',
      Message: '',
      Data: {
        Amount: 0,
        Charges: 0,
        AmountAfterCharges: 0,
        AmountCharged: 0,
        Description: '',
        ClientReference: 'R',
        TransactionId: '',
        ExternalTransactionId: '',
        OrderId: '',
      },
    });
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a numeric code', { ResponseCode: 0, Data: { ClientReference: 'R' } }],
    ['no Data', { ResponseCode: '0000' }],
    ['array Data', { ResponseCode: '0000', Data: [] }],
    ['no reference', { ResponseCode: '0000', Data: {} }],
    ['a string amount', { ResponseCode: '0000', Data: { ClientReference: 'R', Amount: '25' } }],
    ['a numeric description', { ResponseCode: '0000', Data: { ClientReference: 'R', Description: 5 } }],
  ])('refuses %s', (_name, body) => {
    expect(() => parseCallbackPayload(body)).toThrow(DomainError);
  });
});

describe('Transaction state machine (property)', () => {
  const message = fc.oneof(
    fc.record({
      kind: fc.constant('callback' as const),
      code: fc.constantFrom('0000', '0005', '2001', '4000'),
      amount: fc.constantFrom(25.5, 25.49, 1),
      reference: fc.constantFrom(REF, 'OTHER'),
      authenticated: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('status' as const),
      state: fc.constantFrom('paid', 'failed', 'pending', 'unknown', 'unpaid', 'refunded', 'not_found'),
      amount: fc.constantFrom(25.5, 3),
    }),
  );

  it('a final status never changes, and a transaction is success only with a matching amount', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 30 }), (messages) => {
        const tx = pending();
        let final: string | undefined;
        messages.forEach((m, i) => {
          if (m.kind === 'callback')
            tx.applyCallback(
              callback(m.code, { Amount: m.amount, ClientReference: m.reference }),
              days(i),
              m.authenticated,
            );
          else tx.applyStatusCheck({ state: m.state as 'paid', amount: m.amount, raw: {} }, days(i));
          const s = tx.toState();
          if (final) expect(s.status).toBe(final);
          else if (s.status !== 'pending') {
            final = s.status;
            // Success only on an authenticated word: a signed callback or the status API.
            if (final === 'success') expect(m.kind === 'status' || m.authenticated).toBe(true);
          }
          // Decided by a callback: its amount matched. (Decided by the status API: the callback kept is whatever arrived.)
          if (s.status === 'success' && !s.statusCheckInfo) expect(s.callBackInfo?.Data.Amount).toBe(25.5);
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('provider response codes', () => {
  it.each([
    ['0000', 'success'],
    ['0001', 'ask'],
    ['0005', 'ask'],
    ['2001', 'failed'],
    ['2050', 'failed'],
    ['2051', 'failed'],
    ['2100', 'failed'],
    ['2101', 'failed'],
    ['2102', 'failed'],
    ['2103', 'failed'],
    ['2152', 'failed'],
    ['2153', 'failed'],
    ['2154', 'failed'],
    ['2200', 'failed'],
    ['2201', 'failed'],
    ['3008', 'failed'],
    ['4000', 'failed'],
    ['4070', 'failed'],
    ['4101', 'failed'],
    ['4103', 'failed'],
    ['1234', 'ask'],
  ])('reads %s as %s', (code, verdict) => {
    expect(responseVerdict(code)).toBe(verdict);
  });

  it('fails only on documented codes: every documented code but success, pending and unknown is a failure', () => {
    const failures = DOCUMENTED_RESPONSE_CODES.filter((code) => !['0000', '0001', '0005'].includes(code));
    expect(failures.length).toBeGreaterThan(0);
    for (const code of failures) expect(responseVerdict(code)).toBe('failed');
    fc.assert(
      fc.property(fc.stringMatching(/^\d{4}$/), (code) => {
        fc.pre(!(DOCUMENTED_RESPONSE_CODES as readonly string[]).includes(code));
        expect(responseVerdict(code)).toBe('ask');
      }),
    );
  });

  it('never finalises a pending transaction on a pending or undocumented callback code: the status API is asked', () => {
    for (const code of ['0001', '7777']) {
      const tx = pending();
      expect(tx.applyCallback(callback(code), days(1), true)).toEqual({ result: 'deferred' });
      expect(tx.toState()).toMatchObject({ status: 'pending', needsStatusCheck: true });
    }
  });
});
