import { randomBytes } from 'node:crypto';
import {
  moneyToCedis,
  RESPONSE_PENDING,
  type PaymentProvider,
  type PaymentRequest,
  type RequestInfo,
  type StatusCheckResult,
} from '@transport/domain';

/**
 * An in-process stand-in for a Hubtel-style provider: it accepts every request as pending (0001), charging 1%, and
 * sends no callback (tests and operators post callbacks to the service's callback URL). Used when PAYMENT_PROVIDER_URL
 * is unset; with it set, HttpPaymentProvider talks to the real provider or to apps/provider-simulator.
 */
export class SimulatedPaymentProvider implements PaymentProvider {
  async requestPayment(request: PaymentRequest): Promise<RequestInfo> {
    // A new request is whole pesewas; 1% of it is charged to the pesewa, as the provider charges.
    const pesewas = Math.round(request.amount / 10_000);
    const amount = moneyToCedis(request.amount);
    const charges = Math.round(pesewas * 0.01) / 100;
    return {
      Message: 'Transaction pending. Expect callback request for final state',
      ResponseCode: RESPONSE_PENDING,
      Data: {
        TransactionId: randomBytes(16).toString('hex'),
        Description: request.description,
        ClientReference: request.reference,
        Amount: amount,
        Charges: charges,
        AmountAfterCharges: Math.round((amount - charges) * 100) / 100,
        AmountCharged: amount,
        DeliveryFee: 0,
      },
    };
  }

  async checkStatus(reference: string): Promise<StatusCheckResult> {
    return { state: 'unknown', clientReference: reference, raw: { note: 'the simulated provider keeps no state' } };
  }
}
