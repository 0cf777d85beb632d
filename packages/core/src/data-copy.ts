/**
 * A copy of plain data that shares nothing changeable with the original: what the service keeps of what a caller or a
 * module handed it (a lead's fields, a recorded request, a module's answer), and what the memory adapter hands out.
 *
 * Records are plain data, copied by spreading each object: V8 copies such objects with their shape, so a copy is
 * compact and an order of magnitude faster than structuredClone (whose serialize-then-parse dominated every hot path).
 * Freezing stored records instead of copying them was tried and measured: a frozen copy took four times the memory of
 * a plain one. Anything that is not plain data (bytes, dates) is copied the general way, and structuredClone refuses
 * what it cannot copy (a class instance holding a function) with a DataCloneError.
 */
export function copyData<T>(value: T, options: CopyOptions = {}): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => copyData(item, options)) as T;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    return options.json ? (JSON.parse(JSON.stringify(value)) as T) : structuredClone(value);
  // Spread defines own data properties, so even a `__proto__` key is copied as data.
  const record: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key in record) {
    const item = record[key];
    if (typeof item === 'object' && item !== null) record[key] = copyData(item, options);
  }
  return record as T;
}

/** How {@link copyData} copies what is not plain data. */
export interface CopyOptions {
  /**
   * As JSON: a class instance becomes what `JSON.stringify` makes of it (its `toJSON`, else its own enumerable
   * properties), as a store that keeps JSON would keep it; a date, its ISO text. Else the general way
   * (structuredClone), which keeps dates and bytes as they are.
   */
  readonly json?: boolean;
}

/** The descriptor of a plain own data property, as an assignment makes one. */
export const OWN_DATA = { enumerable: true, configurable: true, writable: true } as const;

/** Sets `key` on `target` as its own data property, also when it is `__proto__` (which an assignment takes as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, ...OWN_DATA });
  else target[key] = value;
}
