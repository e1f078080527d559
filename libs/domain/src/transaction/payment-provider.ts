import type { RequestInfo, StatusCheckResult } from './provider-messages';

export interface PaymentRequest {
  reference: string;
  /** Millionths of a cedi (shared/money.ts): a whole number of pesewas. */
  amount: number;
  description: string;
  customerName: string;
  customerPhone: string;
  customerEmail: string;
  requestType: string;
  /** Where the provider must send its callback for this transaction. */
  providerCallbackUrl: string;
}

/** Port: the mobile-money provider (Hubtel-style HTTP API, or the simulator). */
export interface PaymentProvider {
  requestPayment(request: PaymentRequest): Promise<RequestInfo>;
  checkStatus(reference: string): Promise<StatusCheckResult>;
}
