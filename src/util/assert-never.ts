/**
 * Ends an exhaustive `switch`: with every case handled the value is `never` here, so a new member of
 * the union (a new wire event) is a compile error at each switch that does not handle it yet. At run
 * time it throws, for a value that slipped past the types (e.g. a cast).
 */
export function assertNever(value: never, what = 'value'): never {
  const seen: unknown = value;
  const shown =
    typeof seen === 'object' && seen !== null && 'type' in seen ? String(seen.type) : String(seen);
  throw new TypeError(`Unexpected ${what}: ${shown}`);
}
