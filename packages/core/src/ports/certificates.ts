import type { ResultAsync } from 'neverthrow';
import type { Id } from '../ids';
import type { StoreError } from './store-error';

/** The visitor's browser as a certificate recorded it (spec "Ping data", `client`). */
export interface CertificateClient {
  readonly ip: string;
  readonly user_agent: string;
  readonly dimensions: {
    readonly screen: { readonly width: number; readonly height: number };
    readonly window: { readonly width: number; readonly height: number };
  };
  readonly geo: {
    readonly city: string;
    readonly country: string;
    readonly postal_code: string;
    readonly subdivisions: readonly string[];
  };
}

/** The page the visit happened on (spec "Ping data", `location`). */
export interface CertificateLocation {
  readonly framed: boolean;
  readonly parent_url: string;
  readonly url: string;
}

/** A claim by a consent-certificate step; its event names the account and flow. */
export interface CertificateClaim {
  /** When, ISO 8601. */
  readonly at: string;
  /** The step's event. */
  readonly event_id: Id;
  readonly lead_id: Id;
}

/**
 * A consent certificate: the record of one page visit. Certificates belong to the
 * certificate service, not to an account; whoever holds the certificate URL (a lead
 * carries it) may read its ping data with a valid API key.
 */
export interface CertificateRecord {
  /** 40 lowercase hexadecimal characters: the last segment of the certificate URL. */
  readonly id: string;
  /** The opaque token of the vendor-supplied ping URL (`{cert_url}/ping/{ping_token}`). */
  readonly ping_token: string;
  readonly created_at: string;
  /** After this instant the certificate is gone: pings answer 404 and claims fail. */
  readonly expires_at: string;
  readonly client: CertificateClient;
  readonly location: CertificateLocation;
  /** As recorded by the page script; the spec leaves the unit open. */
  readonly time_on_page: number;
  readonly type: string;
  readonly claims: readonly CertificateClaim[];
}

/** Storage of consent certificates. */
export interface CertificateStore {
  /** A Conflict when the ID or the ping token is taken. */
  insert(certificate: CertificateRecord): ResultAsync<void, StoreError>;
  get(id: string): ResultAsync<CertificateRecord | undefined, StoreError>;
  findByPingToken(token: string): ResultAsync<CertificateRecord | undefined, StoreError>;
  /**
   * Appends a claim and moves `expires_at` to `expiresAt` when that is later;
   * answers the certificate as stored afterwards, or undefined when it is unknown.
   */
  claim(id: string, claim: CertificateClaim, expiresAt: string): ResultAsync<CertificateRecord | undefined, StoreError>;
}
