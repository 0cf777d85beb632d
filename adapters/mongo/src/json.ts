/**
 * Opaque parts of a record (a flow's configuration, a lead's fields, an event's
 * body) are kept as JSON text beside the fields the queries use: their keys are the
 * user's (a lead field may be called `$where` or `a.b`, which BSON field names
 * cannot carry faithfully), and JSON gives back exactly what core wrote, as the
 * PostgreSQL adapter's jsonb does.
 */
export const toJson = (value: unknown): string => JSON.stringify(value);

export const fromJson = <T>(text: string): T => JSON.parse(text) as T;
