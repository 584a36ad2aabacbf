// Objects keyed by names the user chose (run keys, breakdown values, pair kinds, field names).
// A plain `{}` turns `obj["__proto__"] = v` into a prototype change and the key disappears from
// the report; a null-prototype object keeps every name, `__proto__` and `constructor` included,
// as an ordinary own property (and JSON.stringify writes it like any other).

/** An empty object with no prototype, for user-named keys. */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
