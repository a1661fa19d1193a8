/**
 * A value made on the first call and kept: for zod schemas that nothing reads before the first model
 * request (files a new session has not written, answers of services it may never call). Making
 * every module's schemas at load was a large part of the time to that request.
 */
export function builtOnFirstUse<T>(build: () => T): () => T {
  let value: { readonly built: T } | undefined;
  return () => {
    value ??= { built: build() };
    return value.built;
  };
}
