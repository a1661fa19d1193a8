import { open } from 'node:fs/promises';
import { extname } from 'node:path';

/** How many leading bytes are read to recognise a file's type. */
export const SNIFF_BYTES = 512;

export type FileKind = 'text' | 'image' | 'video' | 'unknown';

export interface FileType {
  kind: FileKind;
  /** Empty for `unknown`. */
  mimeType: string;
}

const IMAGE_BY_SUFFIX: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.avif': 'image/avif',
  '.svgz': 'image/svg+xml',
};

const VIDEO_BY_SUFFIX: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mkv': 'video/x-matroska',
  '.avi': 'video/x-msvideo',
  '.mov': 'video/quicktime',
  '.wmv': 'video/x-ms-wmv',
  '.webm': 'video/webm',
  '.m4v': 'video/x-m4v',
  '.flv': 'video/x-flv',
  '.3gp': 'video/3gpp',
  '.3g2': 'video/3gpp2',
};

/** SVG is an image format written as XML: models read it as text. */
const TEXT_BY_SUFFIX: Record<string, string> = { '.svg': 'image/svg+xml' };

/** Suffixes of formats that are not text even when their first bytes look harmless. */
const NON_TEXT_SUFFIXES = new Set(
  [
    // design and document formats
    'icns psd ai eps pdf doc docx dot dotx rtf odt xls xlsx xlsm xlt xltx xltm ods ppt pptx pptm pps ppsx odp pages numbers key',
    // archives
    'zip rar 7z tar gz tgz bz2 xz zst lz lz4 br cab ar deb rpm',
    // audio
    'mp3 wav flac ogg oga opus aac m4a wma',
    // fonts, binaries, bundles
    'ttf otf woff woff2 exe dll so dylib bin apk ipa jar class pyc pyo wasm',
    // disk images and databases
    'dmg iso img sqlite sqlite3 db db3',
  ]
    .join(' ')
    .split(' ')
    .map((suffix) => `.${suffix}`),
);

/** ISO base media (`....ftyp<brand>`) brands that mean an image, and those that mean a video. */
const FTYP_IMAGE_BRANDS: Record<string, string> = {
  avif: 'image/avif',
  avis: 'image/avif',
  heic: 'image/heic',
  heix: 'image/heif',
  hevc: 'image/heic',
  heif: 'image/heif',
  mif1: 'image/heif',
  msf1: 'image/heif',
};
const FTYP_VIDEO_BRANDS: Record<string, string> = {
  isom: 'video/mp4',
  iso2: 'video/mp4',
  iso5: 'video/mp4',
  mp41: 'video/mp4',
  mp42: 'video/mp4',
  avc1: 'video/mp4',
  mp4v: 'video/mp4',
  m4v: 'video/x-m4v',
  qt: 'video/quicktime',
  '3gp4': 'video/3gpp',
  '3gp5': 'video/3gpp',
  '3gp6': 'video/3gpp',
  '3gp7': 'video/3gpp',
  '3g2': 'video/3gpp2',
};

const ASF_HEADER = Buffer.from('3026b2758e66cf11a6d900aa0062ce6c', 'hex');

function startsWith(data: Uint8Array, prefix: Uint8Array | string): boolean {
  const bytes = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : prefix;
  if (data.length < bytes.length) return false;
  return bytes.every((byte, index) => data[index] === byte);
}

const image = (mimeType: string): FileType => ({ kind: 'image', mimeType });
const video = (mimeType: string): FileType => ({ kind: 'video', mimeType });
const UNKNOWN: FileType = { kind: 'unknown', mimeType: '' };

/** Recognises an image or video from its first bytes (magic numbers); null if it is neither. */
export function sniffMedia(data: Uint8Array): FileType | null {
  const header = Buffer.from(data.buffer, data.byteOffset, Math.min(data.length, SNIFF_BYTES));
  if (startsWith(header, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return image('image/png');
  if (startsWith(header, Buffer.from([0xff, 0xd8, 0xff]))) return image('image/jpeg');
  if (startsWith(header, 'GIF87a') || startsWith(header, 'GIF89a')) return image('image/gif');
  if (startsWith(header, 'BM')) return image('image/bmp');
  if (startsWith(header, 'II*\u0000') || startsWith(header, 'MM\u0000*')) return image('image/tiff');
  if (startsWith(header, Buffer.from([0x00, 0x00, 0x01, 0x00]))) return image('image/x-icon');
  if (startsWith(header, 'RIFF') && header.length >= 12) {
    const chunk = header.toString('latin1', 8, 12);
    if (chunk === 'WEBP') return image('image/webp');
    if (chunk === 'AVI ') return video('video/x-msvideo');
  }
  if (startsWith(header, 'FLV')) return video('video/x-flv');
  if (startsWith(header, ASF_HEADER)) return video('video/x-ms-wmv');
  if (startsWith(header, Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))) {
    const lowered = header.toString('latin1').toLowerCase();
    if (lowered.includes('webm')) return video('video/webm');
    if (lowered.includes('matroska')) return video('video/x-matroska');
  }
  if (header.length >= 12 && header.toString('latin1', 4, 8) === 'ftyp') {
    const brand = header.toString('latin1', 8, 12).toLowerCase().trim();
    const imageType = FTYP_IMAGE_BRANDS[brand];
    if (imageType) return image(imageType);
    const videoType = FTYP_VIDEO_BRANDS[brand];
    if (videoType) return video(videoType);
  }
  return null;
}

/**
 * Decides what a file is from its suffix and, when given, its first bytes. A media suffix wins; then
 * magic numbers; a NUL byte means binary; a known binary suffix means binary; everything else is text.
 */
export function detectFileType(path: string, header?: Uint8Array): FileType {
  const suffix = extname(path).toLowerCase();
  const imageType = IMAGE_BY_SUFFIX[suffix];
  if (imageType) return image(imageType);
  const videoType = VIDEO_BY_SUFFIX[suffix];
  if (videoType) return video(videoType);
  const textType = TEXT_BY_SUFFIX[suffix];
  if (header) {
    const sniffed = sniffMedia(header);
    // Media bytes behind a text suffix (an .svg that is really a PNG): trust neither.
    if (sniffed) return textType ? UNKNOWN : sniffed;
    if (header.subarray(0, SNIFF_BYTES).includes(0)) return UNKNOWN;
  }
  if (textType) return { kind: 'text', mimeType: textType };
  if (NON_TEXT_SUFFIXES.has(suffix)) return UNKNOWN;
  return { kind: 'text', mimeType: 'text/plain' };
}

/** The first `SNIFF_BYTES` bytes of a file (fewer if it is shorter). */
export async function readFileHeader(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
