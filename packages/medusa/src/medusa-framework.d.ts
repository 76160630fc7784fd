/**
 * The part of @medusajs/framework this package uses, declared for the workspace's own type-check
 * and build only: Medusa (~1,000 packages) is not installed in the workspace, so that every
 * `npm ci` stays fast. It is a peer dependency: a shop's Medusa provides the real modules and
 * types, which the emitted declarations name. The names and shapes below are those of
 * @medusajs/framework 2.x (`utils`: AbstractPaymentProvider, BigNumber, MedusaError, Modules,
 * ModuleProvider; `types`: the payment provider's inputs and outputs). The Medusa integration
 * test (packages/medusa/integration) installs the real framework and type-checks this package's
 * published declarations against it, so a drift between the two fails a test.
 */
declare module '@medusajs/framework/types' {
  export type BigNumberRawValue = { value: string | number; precision?: number; [key: string]: unknown };
  export interface IBigNumber {
    numeric: number;
    raw?: BigNumberRawValue | undefined;
    toJSON(): number;
  }
  export type BigNumberInput = BigNumberRawValue | number | string | IBigNumber;
  export type BigNumberValue = IBigNumber | number | string;
  export type PaymentSessionStatus =
    | 'authorized'
    | 'captured'
    | 'pending'
    | 'requires_more'
    | 'error'
    | 'canceled'
    | 'pending_authorization';
  export type PaymentActions =
    | 'authorized'
    | 'captured'
    | 'failed'
    | 'pending'
    | 'requires_more'
    | 'canceled'
    | 'not_supported'
    | 'pending_authorization';
  export type PaymentProviderContext = { idempotency_key?: string; customer?: { id: string; email: string } };
  export type PaymentProviderInput = { data?: Record<string, unknown>; context?: PaymentProviderContext };
  export interface InitiatePaymentInput extends PaymentProviderInput {
    amount: BigNumberInput;
    currency_code: string;
  }
  export interface UpdatePaymentInput extends PaymentProviderInput {
    amount: BigNumberInput;
    currency_code: string;
  }
  export interface RefundPaymentInput extends PaymentProviderInput {
    amount: BigNumberInput;
  }
  export interface DeletePaymentInput extends PaymentProviderInput {}
  export interface AuthorizePaymentInput extends PaymentProviderInput {}
  export interface CapturePaymentInput extends PaymentProviderInput {}
  export interface RetrievePaymentInput extends PaymentProviderInput {}
  export interface CancelPaymentInput extends PaymentProviderInput {}
  export interface GetPaymentStatusInput extends PaymentProviderInput {}
  export type PaymentProviderOutput = { data?: Record<string, unknown> };
  export interface InitiatePaymentOutput extends PaymentProviderOutput {
    id: string;
    status?: PaymentSessionStatus;
  }
  export interface AuthorizePaymentOutput extends PaymentProviderOutput {
    status: PaymentSessionStatus;
  }
  export interface UpdatePaymentOutput extends PaymentProviderOutput {
    status?: PaymentSessionStatus;
  }
  export interface GetPaymentStatusOutput extends PaymentProviderOutput {
    status: PaymentSessionStatus;
  }
  export interface DeletePaymentOutput extends PaymentProviderOutput {}
  export interface CapturePaymentOutput extends PaymentProviderOutput {}
  export interface RefundPaymentOutput extends PaymentProviderOutput {}
  export interface RetrievePaymentOutput extends PaymentProviderOutput {}
  export interface CancelPaymentOutput extends PaymentProviderOutput {}
  export interface ProviderWebhookPayload {
    provider: string;
    payload: { data: Record<string, unknown>; rawData: string | Uint8Array; headers: Record<string, unknown> };
  }
  export type WebhookActionResult = {
    action: PaymentActions;
    data?: { session_id: string; amount: BigNumberValue };
  };
  export type ModuleProviderExports = { module?: string; services: (abstract new (...args: never[]) => unknown)[] };
  export interface Logger {
    info(message: string): void;
    warn(message: string): void;
    error(messageOrError: string | Error, error?: Error): void;
    debug(message: string): void;
  }
}

declare module '@medusajs/framework/utils' {
  import type {
    AuthorizePaymentInput,
    AuthorizePaymentOutput,
    BigNumberInput,
    BigNumberRawValue,
    CancelPaymentInput,
    CancelPaymentOutput,
    CapturePaymentInput,
    CapturePaymentOutput,
    DeletePaymentInput,
    DeletePaymentOutput,
    GetPaymentStatusInput,
    GetPaymentStatusOutput,
    IBigNumber,
    InitiatePaymentInput,
    InitiatePaymentOutput,
    ProviderWebhookPayload,
    RefundPaymentInput,
    RefundPaymentOutput,
    RetrievePaymentInput,
    RetrievePaymentOutput,
    UpdatePaymentInput,
    UpdatePaymentOutput,
    ModuleProviderExports,
    WebhookActionResult,
  } from '@medusajs/framework/types';

  export abstract class AbstractPaymentProvider<TConfig = Record<string, unknown>> {
    protected readonly config: TConfig;
    protected readonly container: Record<string, unknown>;
    static validateOptions(options: Record<string, unknown>): void;
    protected constructor(cradle: Record<string, unknown>, config?: TConfig);
    static identifier: string;
    getIdentifier(): string;
    abstract capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput>;
    abstract authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput>;
    abstract cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput>;
    abstract initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput>;
    abstract deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput>;
    abstract getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput>;
    abstract refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput>;
    abstract retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput>;
    abstract updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput>;
    abstract getWebhookActionAndData(data: ProviderWebhookPayload['payload']): Promise<WebhookActionResult>;
  }

  export class BigNumber implements IBigNumber {
    constructor(rawValue: BigNumberInput | BigNumber, options?: { precision?: number });
    get numeric(): number;
    get raw(): BigNumberRawValue | undefined;
    toJSON(): number;
  }

  export class MedusaError extends Error {
    type: string;
    static Types: {
      INVALID_ARGUMENT: string;
      INVALID_DATA: string;
      NOT_FOUND: string;
      NOT_ALLOWED: string;
      UNEXPECTED_STATE: string;
      CONFLICT: string;
      PAYMENT_AUTHORIZATION_ERROR: string;
    };
    constructor(type: string, message: string, code?: string, ...params: unknown[]);
  }

  export const Modules: { PAYMENT: 'payment' };

  export function ModuleProvider(serviceName: string, exports: ModuleProviderExports): ModuleProviderExports;
}
