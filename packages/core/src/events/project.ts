/** Keeps only the dotted paths in `include` (and `id`), or drops those in `exclude`. */
export function project(
  record: Readonly<Record<string, unknown>>,
  include?: readonly string[],
  exclude?: readonly string[],
): Record<string, unknown> {
  if (include) {
    const out: Record<string, unknown> = { id: record.id };
    for (const path of include) {
      const parts = path.split('.');
      let from: unknown = record;
      for (const part of parts)
        from = from && typeof from === 'object' ? (from as Record<string, unknown>)[part] : undefined;
      if (from === undefined) continue;
      let into = out;
      parts.forEach((part, i) => {
        if (i === parts.length - 1) into[part] = from;
        else into = (into[part] ??= {}) as Record<string, unknown>;
      });
    }
    return out;
  }
  if (!exclude) return { ...record };
  const out = structuredClone(record) as Record<string, unknown>;
  for (const path of exclude) {
    const parts = path.split('.');
    let at: unknown = out;
    for (const part of parts.slice(0, -1))
      at = at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
    if (at && typeof at === 'object') delete (at as Record<string, unknown>)[parts[parts.length - 1] as string];
  }
  return out;
}
