const BASE64_DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/** The MIME type and base64 payload of a `data:<type>;base64,<data>` URL; null for any other URL. */
export function parseDataUrl(url: string): { mimeType: string; data: string } | null {
  const match = BASE64_DATA_URL.exec(url);
  return match ? { mimeType: match[1]!, data: match[2]! } : null;
}
