/** Whether `value` is an absolute http:// or https:// URL (a config endpoint, `KIMI_BASE_URL`). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
