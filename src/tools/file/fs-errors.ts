/** Node's fs errors carry a `code` such as `ENOENT`. */
function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object' || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export function isMissingFileError(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export function describeFsError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
