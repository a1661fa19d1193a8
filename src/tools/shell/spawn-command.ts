/** What to spawn for `bash -c command`: bash itself, or bash behind the sandbox's argv prefix. */
export function bashSpawnArgs(
  bashPath: string,
  command: string,
  sandboxPrefix: readonly string[] | undefined,
): { file: string; args: string[] } {
  return withPrefix(sandboxPrefix, bashPath, ['-c', command]);
}

/** `program args…`, or the same behind `prefix` (e.g. `bwrap … --`). */
export function withPrefix(
  prefix: readonly string[] | undefined,
  program: string,
  args: readonly string[],
): { file: string; args: string[] } {
  if (!prefix || prefix.length === 0) return { file: program, args: [...args] };
  const [file, ...rest] = prefix as [string, ...string[]];
  return { file, args: [...rest, program, ...args] };
}
