export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Reads an image's pixel size from its header (PNG, GIF, BMP, JPEG, WebP); null for other formats
 * or a header that does not parse. Reported to the model so it can turn relative coordinates into
 * absolute ones.
 */
export function imageSize(data: Buffer, mimeType: string): ImageSize | null {
  try {
    switch (mimeType) {
      case 'image/png':
        return data.length >= 24 ? { width: data.readUInt32BE(16), height: data.readUInt32BE(20) } : null;
      case 'image/gif':
        return data.length >= 10 ? { width: data.readUInt16LE(6), height: data.readUInt16LE(8) } : null;
      case 'image/bmp':
        return data.length >= 26
          ? { width: Math.abs(data.readInt32LE(18)), height: Math.abs(data.readInt32LE(22)) }
          : null;
      case 'image/jpeg':
        return jpegSize(data);
      case 'image/webp':
        return webpSize(data);
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/** Walks the JPEG segments up to the first start-of-frame marker, which holds the size. */
function jpegSize(data: Buffer): ImageSize | null {
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const isStartOfFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame)
      return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    offset += 2 + data.readUInt16BE(offset + 2);
  }
  return null;
}

function webpSize(data: Buffer): ImageSize | null {
  if (data.length < 30) return null;
  const chunk = data.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    return { width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    const bits = data.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  }
  return null;
}
