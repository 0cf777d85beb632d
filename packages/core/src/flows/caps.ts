import { okAsync, type ResultAsync } from 'neverthrow';
import type { LeadrouteError } from '../errors';
import type { CounterStore } from '../ports/counters';
import type { EventCap } from '../domain/events';
import type { CompiledCap } from './compile';
import type { Cap } from '../domain/flows';
import { limitWindow } from './windows';

/** Cap slots taken for one lead, to give back if its delivery does not succeed. */
export interface Reservation {
  readonly keys: readonly string[];
  /** The cap that was full, if one was. */
  readonly full?: CompiledCap;
  /** IDs of the caps whose slot this lead took (none when one was full: those were given back). */
  readonly counted: readonly string[];
}

type Env = { readonly now: number; readonly timeZone: string };

function capKey(scope: string, compiled: CompiledCap, env: Env) {
  const { cap } = compiled;
  const window = limitWindow(env.now, cap.duration, cap.duration_units, cap.time_zone ?? env.timeZone);
  return { key: `cap:${scope}:${cap.id}:${window.start}`, expires: window.end };
}

/**
 * Takes one slot of every cap that applies to the lead, atomically per cap; when
 * one is full, gives back what it took and names that cap. Caps are therefore
 * never exceeded, however many leads arrive at once.
 */
export function reserveCaps(
  counters: CounterStore,
  scope: string,
  caps: readonly CompiledCap[],
  ctx: Record<string, unknown>,
  env: Env,
): ResultAsync<Reservation, LeadrouteError> {
  const applying = caps.filter((c) => !c.applies || c.applies(ctx, env).pass);
  const taken: string[] = [];
  const counted: string[] = [];
  const step = (i: number): ResultAsync<Reservation, LeadrouteError> => {
    const compiled = applying[i];
    if (!compiled) return okAsync({ keys: taken, counted });
    const { key, expires } = capKey(scope, compiled, env);
    return counters.tryIncrement(key, compiled.cap.maximum, expires).andThen((took) => {
      if (took) {
        taken.push(key);
        counted.push(compiled.cap.id);
        return step(i + 1);
      }
      return releaseCaps(counters, taken).map(() => ({ keys: [], counted: [], full: compiled }));
    });
  };
  return step(0);
}

/** Gives back reserved slots. */
export function releaseCaps(counters: CounterStore, keys: readonly string[]): ResultAsync<void, LeadrouteError> {
  return keys.reduce<ResultAsync<void, LeadrouteError>>(
    (acc, key) => acc.andThen(() => counters.decrement(key)),
    okAsync(undefined),
  );
}

/** Whether any applying cap is already full, without taking a slot (pings only look). */
export function capsFull(
  counters: CounterStore,
  scope: string,
  caps: readonly CompiledCap[],
  ctx: Record<string, unknown>,
  env: Env,
): ResultAsync<boolean, LeadrouteError> {
  const applying = caps.filter((c) => !c.applies || c.applies(ctx, env).pass);
  return applying.reduce<ResultAsync<boolean, LeadrouteError>>(
    (acc, compiled) =>
      acc.andThen((full) =>
        full ? okAsync(true) : counters.get(capKey(scope, compiled, env).key).map((n) => n >= compiled.cap.maximum),
      ),
    okAsync(false),
  );
}

const NO_CAPS: Readonly<Record<string, EventCap>> = Object.freeze({});

/** A recipient event's `caps`: every cap of the step by ID, with what it did for this lead (#19.7). */
export function eventCaps(
  caps: readonly Cap[] | undefined,
  reservation?: Reservation,
): Readonly<Record<string, EventCap>> {
  // A step without caps records one shared empty object: stored events are never changed in place (#22.9).
  if (!caps || caps.length === 0) return NO_CAPS;
  const out: Record<string, EventCap> = {};
  for (const cap of caps) {
    out[cap.id] = {
      name: cap.name,
      maximum: cap.maximum,
      duration: cap.duration,
      duration_units: cap.duration_units,
      ...(cap.time_zone ? { time_zone: cap.time_zone } : {}),
      counted: reservation?.counted.includes(cap.id) ?? false,
      reached: reservation?.full?.cap.id === cap.id,
    };
  }
  return out;
}
