import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { errors, type LeadrouteError } from '../errors';
import type { CertificateClient, CertificateLocation, CertificateRecord } from '../ports/certificates';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { isoTime } from '../time';
import { certificateIdOfUrl, isCertificateId, isPingToken, newCertificateId, newPingToken } from './ids';
import { type PingData, pingData } from './ping';

/** Options of the certificate service (`createLeadService({ certificates })`). */
export interface CertificateOptions {
  /**
   * Where the certificate handler is mounted, so {@link CertificatesApi.record} can answer
   * full certificate and ping URLs.
   * @example 'https://leads.example.com/certificates'
   */
  readonly baseUrl?: string;
  /** How long an unclaimed certificate lives. @default 72 hours */
  readonly unclaimedTtlMs?: number;
  /** How long a certificate lives after a claim. @default 90 days, the retention of the events that cite it */
  readonly claimedTtlMs?: number;
}

/** A page visit to certify, as the host's page script reports it. */
export interface NewCertificate {
  readonly client: CertificateClient;
  readonly location: CertificateLocation;
  readonly time_on_page: number;
  /** @default 'web' */
  readonly type?: string;
}

/** What {@link CertificatesApi.record} answers. */
export interface RecordedCertificate {
  readonly id: string;
  readonly ping_token: string;
  readonly created_at: string;
  readonly expires_at: string;
  /** `<baseUrl>/<id>` when `baseUrl` is configured: what a lead carries as `trustedform_cert_url`. */
  readonly cert_url?: string;
  /** `<baseUrl>/ping/<ping_token>` when `baseUrl` is configured: the vendor-supplied ping URL. */
  readonly ping_url?: string;
}

/** What a claim found. Anything but `claimed` is a reason the step does not pass. */
export type ClaimResult =
  | { readonly status: 'claimed'; readonly certificate: CertificateRecord }
  | { readonly status: 'missing' | 'malformed' | 'unknown' | 'expired'; readonly reason: string };

/** The `certificates` sub-API: consent certificates and their ping data. */
export interface CertificatesApi {
  /** Records a page visit as a new certificate (the host's page script calls this). */
  record(input: NewCertificate): ResultAsync<RecordedCertificate, LeadrouteError>;
  /** Ping data by certificate ID: 400 for a malformed ID, 404 for an unknown or expired one. */
  ping(certId: string): ResultAsync<PingData, LeadrouteError>;
  /** Ping data by the token of a vendor-supplied ping URL; errors as {@link ping}. */
  pingByToken(token: string): ResultAsync<PingData, LeadrouteError>;
  /** Claims the certificate a lead's `trustedform_cert_url` names, keeping it for `claimedTtlMs`. */
  claim(
    certUrl: unknown,
    by: { readonly event_id: string; readonly lead_id: string },
  ): ResultAsync<ClaimResult, LeadrouteError>;
}

const HOUR = 60 * 60 * 1000;

export function createCertificatesApi(deps: {
  storage: Storage;
  clock: Clock;
  options?: CertificateOptions;
}): CertificatesApi {
  const { storage, clock } = deps;
  const unclaimedTtl = deps.options?.unclaimedTtlMs ?? 72 * HOUR;
  const claimedTtl = deps.options?.claimedTtlMs ?? 90 * 24 * HOUR;
  const base = deps.options?.baseUrl?.replace(/\/+$/, '');
  const live = (c: CertificateRecord | undefined, now: number): c is CertificateRecord =>
    c !== undefined && Date.parse(c.expires_at) > now;

  const answer = (found: ResultAsync<CertificateRecord | undefined, LeadrouteError>, what: string) =>
    found.andThen((c) => {
      const now = clock.now();
      // An expired certificate is gone, as far as anyone asking can tell.
      return live(c, now) ? okAsync(pingData(c, now)) : errAsync(errors.notFound(what));
    });

  return {
    record(input) {
      const now = clock.now();
      const certificate: CertificateRecord = {
        id: newCertificateId(),
        ping_token: newPingToken(),
        created_at: isoTime(now),
        expires_at: isoTime(now + unclaimedTtl),
        client: input.client,
        location: input.location,
        time_on_page: input.time_on_page,
        type: input.type ?? 'web',
        claims: [],
      };
      return storage.certificates.insert(certificate).map(() => ({
        id: certificate.id,
        ping_token: certificate.ping_token,
        created_at: certificate.created_at,
        expires_at: certificate.expires_at,
        ...(base === undefined
          ? {}
          : { cert_url: `${base}/${certificate.id}`, ping_url: `${base}/ping/${certificate.ping_token}` }),
      }));
    },

    ping(certId) {
      if (!isCertificateId(certId))
        return errAsync(
          errors.badRequest('Malformed certificate URL: the certificate ID must be 40 hexadecimal characters.'),
        );
      return answer(storage.certificates.get(certId.toLowerCase()), `Certificate ${certId}`);
    },

    pingByToken(token) {
      if (!isPingToken(token)) return errAsync(errors.badRequest('Malformed ping URL: the ping token is not valid.'));
      return answer(storage.certificates.findByPingToken(token), 'Certificate');
    },

    claim(certUrl, by) {
      if (certUrl === undefined || certUrl === null || (typeof certUrl === 'string' && certUrl.trim() === ''))
        return okAsync({ status: 'missing', reason: 'missing certificate' });
      const id = certificateIdOfUrl(certUrl);
      if (id.isErr()) return okAsync({ status: 'malformed', reason: id.error });
      const now = clock.now();
      return storage.certificates.get(id.value).andThen((found): ResultAsync<ClaimResult, LeadrouteError> => {
        if (!found) return okAsync({ status: 'unknown', reason: 'unknown certificate' });
        if (!live(found, now)) return okAsync({ status: 'expired', reason: 'expired certificate' });
        return storage.certificates
          .claim(found.id, { at: isoTime(now), event_id: by.event_id, lead_id: by.lead_id }, isoTime(now + claimedTtl))
          .map(
            (claimed): ClaimResult =>
              claimed
                ? { status: 'claimed', certificate: claimed }
                : { status: 'unknown', reason: 'unknown certificate' },
          );
      });
    },
  };
}
