import type { Issue } from '../errors';
import type { Transaction } from '../domain/transactions';

export type { RecordedRequest, RecordedResponse, Transaction } from '../domain/transactions';

/** A credential as a module receives it (with its secret). */
export interface DeliveryCredential {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly username: string | null;
  readonly password: string | null;
}

/** What a module is asked to deliver. */
export interface DeliveryRequest {
  /** The lead after the step's mappings, as plain values. */
  readonly lead: Readonly<Record<string, unknown>>;
  /** The step's module configuration. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly credential?: DeliveryCredential;
  readonly lead_id: string;
  readonly event_id: string;
  /** The step's price for this lead (from its pricing), if any. */
  readonly price?: number;
  /** Aborted when the step's timeout passes. */
  readonly signal: AbortSignal;
}

/** What a module reports. A module never throws; if it does, the step's outcome is error. */
export interface DeliveryResult {
  readonly outcome: 'success' | 'failure' | 'error' | 'skip';
  readonly reason?: string;
  /** The price the recipient reports paying. */
  readonly price?: number;
  /** The recipient's own record ID for the lead: what feedback by recipient_record_id finds. */
  readonly reference?: string;
  /** Data appended to the lead for later steps. */
  readonly appended?: Readonly<Record<string, unknown>>;
  readonly transactions?: readonly Transaction[];
}

/** An outbound integration module: `platform-<integration>.outbound.<name>`. */
export interface OutboundModule {
  readonly id: string;
  readonly package_version: string;
  deliver(request: DeliveryRequest): Promise<DeliveryResult>;
  /** Problems with a step's `config` for this module (paths relative to the config). */
  validateConfig?(config: Readonly<Record<string, unknown>>): Issue[];
}
