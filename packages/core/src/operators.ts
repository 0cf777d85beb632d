import { timingSafeEqual } from 'node:crypto';
import { errAsync, okAsync, type ResultAsync } from 'neverthrow';
import { hashApiKey } from './accounts/service';
import { errors, type LeadrouteError } from './errors';

/**
 * A member of the operator's staff: the people who run this Leadroute installation for
 * its customer accounts. Staff are not an account and own no data; they may read what
 * the spec reserves for them (the internal entries of any account's alert timeline).
 */
export interface OperatorStaff {
  readonly id: string;
  readonly name: string;
  readonly email?: string;
}

/** How a staff member is configured: who, and the SHA-256 (hex) of the key they authenticate with. */
export interface OperatorStaffConfig extends OperatorStaff {
  readonly api_key_sha256: string;
}

/** A caller authenticated as operator staff (see {@link OperatorsApi.authenticate}). */
export interface OperatorPrincipal {
  readonly kind: 'operator';
  readonly staff: OperatorStaff;
}

/** The `operators` sub-API. Staff come from the service's configuration (`operatorStaff`), never from an HTTP call. */
export interface OperatorsApi {
  /** The staff member whose key this is; `Unauthorized` for anything else. */
  authenticate(apiKey: string): ResultAsync<OperatorPrincipal, LeadrouteError>;
}

export function createOperatorsApi(staff: readonly OperatorStaffConfig[] = []): OperatorsApi {
  const known = staff.map((s) => ({
    digest: Buffer.from(s.api_key_sha256, 'hex'),
    staff: { id: s.id, name: s.name, ...(s.email ? { email: s.email } : {}) },
  }));
  for (const s of known)
    if (s.digest.length !== 32)
      throw new Error(`[leadroute] operator staff ${s.staff.id}: api_key_sha256 must be 64 hex digits.`);
  return {
    authenticate(apiKey) {
      if (typeof apiKey !== 'string' || apiKey.length === 0 || apiKey.length > 512 || known.length === 0)
        return errAsync(errors.unauthorized());
      // Hashed as account keys are, so one hashApiKey serves both when a host configures staff.
      const digest = Buffer.from(hashApiKey(apiKey), 'hex');
      // Every configured digest is compared, in constant time, so timing tells nothing of which matched.
      let found: OperatorStaff | undefined;
      for (const s of known) if (timingSafeEqual(s.digest, digest)) found = s.staff;
      return found ? okAsync({ kind: 'operator', staff: found }) : errAsync(errors.unauthorized());
    },
  };
}

/** Whether a principal is operator staff rather than an account's caller. */
export const isOperator = (principal: object): principal is OperatorPrincipal =>
  (principal as { kind?: unknown }).kind === 'operator';
