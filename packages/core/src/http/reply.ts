import type { Reply } from './types';

/** A JSON reply with `status`, for `.map(json(200))` at the end of a route. */
export const json =
  (status: number) =>
  (value: unknown): Reply => ({ status, json: value });
