import { type BigIntStats, constants, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/**
 * One credential format. `hints` are texts of which every match holds at least one (lower case when
 * `anyCase`): a text holding none of them is passed over without running the pattern. Most texts
 * checked (every environment variable's value at each start) hold none, and V8 compiles a regular
 * expression on its first run: the table cost ~1 ms of CPU on the path to the first model request.
 */
interface SecretContentRule {
  what: string;
  hints: readonly string[];
  anyCase?: true;
  pattern: RegExp;
  /** A second pattern the text must match too (anywhere), when one alone says too little. */
  also?: RegExp;
}

/**
 * Well-known credential formats, for files that hold secrets whatever their name (`.git/config`
 * with a token in a remote URL, `notes.txt` with a pasted key). Our own table, not secretlint's
 * preset: `@secretlint/*` 12 and 13 declare Node ≥ 22 (this project runs on 20), its API is async
 * with a ~40 ms load, and on samples tried here it missed OpenSSH private keys and `sk-` keys. The
 * formats follow the vendors' documented prefixes (the same facts secretlint and gitleaks encode).
 */
const SECRET_CONTENT_RULES: readonly SecretContentRule[] = [
  {
    what: 'a private key',
    hints: ['-----BEGIN '],
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/,
  },
  {
    what: 'a GitHub token',
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/,
  },
  { what: 'a GitHub token', hints: ['github_pat_'], pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/ },
  { what: 'an Anthropic API key', hints: ['sk-ant-'], pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  {
    what: 'an API key (sk-…)',
    hints: ['sk-'],
    pattern: /\bsk-(?:proj-|svcacct-|admin-|live-)?[A-Za-z0-9_-]{20,}/,
  },
  {
    what: 'an AWS access key',
    hints: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    // AWS's documented example ids (`AKIAIOSFODNN7EXAMPLE`, `AKIAI44QH8DHBEXAMPLE`: in countless
    // READMEs and tests) are none.
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)(?![A-Z0-9]{9}EXAMPLE\b)[A-Z0-9]{16}\b/,
  },
  { what: 'a Slack token', hints: ['xox'], pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { what: 'an npm token', hints: ['npm_'], pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  {
    what: 'a registry auth token',
    hints: ['_auth', '_password'],
    pattern: /(?:^|[\s:])_(?:authToken|auth|password)\s*=\s*[^\s$]/m,
  },
  {
    what: 'a GitLab token',
    hints: ['glpat-', 'gldt-', 'glptt-', 'glrt-'],
    pattern: /\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}/,
  },
  { what: 'a Google API key', hints: ['AIza'], pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { what: 'a Stripe key', hints: ['k_live_'], pattern: /\b[rs]k_live_[0-9A-Za-z]{20,}/ },
  { what: 'a Hugging Face token', hints: ['hf_'], pattern: /\bhf_[A-Za-z]{34}\b/ },
  {
    // The secret key has no prefix of its own: known by the name it is given in a file or variable.
    what: 'an AWS secret access key',
    hints: ['secret_access_key', 'secretaccesskey'],
    anyCase: true,
    // Not AWS's two documented examples (`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, `je7M…`).
    pattern:
      /secret_?access_?key["']?\s*[:=]\s*["']?(?!(?:wJalrXUtnFEMI\/K7MDENG\/bPxRfiCY|je7MtGbClwBF\/2Zp9Utk\/h3yCo8nvb)EXAMPLEKEY(?![A-Za-z0-9/+]))[A-Za-z0-9/+]{30,60}(?![A-Za-z0-9/+])/i,
  },
  { what: 'a Google OAuth client secret', hints: ['GOCSPX-'], pattern: /\bGOCSPX-[A-Za-z0-9_-]{24,}/ },
  { what: 'a PyPI token', hints: ['pypi-'], pattern: /\bpypi-AgE[A-Za-z0-9_-]{40,}/ },
  { what: 'a SendGrid key', hints: ['SG.'], pattern: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/ },
  {
    what: 'a DigitalOcean token',
    hints: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
    pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/,
  },
  { what: 'an age secret key', hints: ['AGE-SECRET-KEY-1'], pattern: /AGE-SECRET-KEY-1[0-9A-Z]{50,}/ },
  {
    what: 'an Azure storage key',
    hints: ['accountkey=', 'sharedaccesssignature='],
    anyCase: true,
    pattern: /\b(?:AccountKey|SharedAccessSignature)=[A-Za-z0-9+/%=&-]{20,}/i,
  },
  {
    what: 'a Shopify token',
    hints: ['shpat_', 'shpca_', 'shppa_', 'shpss_'],
    pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/,
  },
  {
    what: 'a Telegram bot token',
    hints: [':A'],
    pattern: /\b\d{5,16}:A[A-Za-z0-9_-]{32,34}(?![A-Za-z0-9_-])/,
  },
  {
    what: 'a JSON Web Token',
    hints: ['eyJ'],
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/,
  },
  {
    what: 'a webhook URL',
    hints: ['hooks.slack.com/', '/api/webhooks/', 'webhook.office.com/'],
    pattern:
      /\bhttps:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/|(?:[a-z]+\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/|[a-z0-9-]+\.webhook\.office\.com\/)[A-Za-z0-9_/-]{16,}/,
  },
  { what: 'a Linear API key', hints: ['lin_api_'], pattern: /\blin_api_[A-Za-z0-9]{40}\b/ },
  { what: 'a Postman API key', hints: ['PMAK-'], pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/ },
  { what: 'a Databricks token', hints: ['dapi'], pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/ },
  {
    what: 'a URL with a password',
    hints: ['://'],
    // scheme://user:password@host, the password not a `$VAR` or `${VAR}` reference.
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/'"]+:(?!\$)[^\s@/'"]+@[^\s/'"]+/i,
  },
  {
    // A Kubernetes Secret keeps its values base64-encoded under `data:` (`stringData:` plain): no
    // format above sees them, the manifest's kind says what they are. YAML or JSON.
    what: 'a Kubernetes Secret',
    hints: ['Secret'],
    pattern: /^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?Secret["']?[ \t]*,?[ \t]*\r?$/m,
    also: /^[ \t]*["']?(?:data|stringData)["']?[ \t]*:/m,
  },
  {
    what: 'an HTTP authorization header',
    hints: ['authorization:'],
    anyCase: true,
    pattern: /\bauthorization:\s*(?:basic|bearer|token)\s+[A-Za-z0-9+/=._-]{8,}/i,
  },
];

/** Why `text` holds a secret (the kind of credential, never the value), or null. */
export function secretContentReason(text: string): string | null {
  let lowered: string | undefined;
  for (const rule of SECRET_CONTENT_RULES) {
    let searched = text;
    if (rule.anyCase) {
      lowered ??= text.toLowerCase();
      searched = lowered;
    }
    if (!rule.hints.some((hint) => searched.includes(hint))) continue;
    if (rule.pattern.test(text) && (rule.also === undefined || rule.also.test(text)))
      return `holds ${rule.what}`;
  }
  return null;
}

/** Each rule's pattern made global (for replacing every match), made on first use. */
let globalPatterns: readonly (RegExp | null)[] | undefined;

/**
 * `text` with every match of the table replaced by `replacement` (a private key from its header to
 * its end marker): a backstop for tool output, which may print a credential no check saw coming
 * (a command's own output, git's stored blobs). Rules that judge a whole text (a Kubernetes Secret)
 * have no single value to take out and are left to the checks before a read.
 */
export function redactSecretContent(text: string, replacement: string): string {
  globalPatterns ??= SECRET_CONTENT_RULES.map((rule) => {
    if (rule.also !== undefined) return null;
    const source =
      rule.what === 'a private key'
        ? `${rule.pattern.source}[\\s\\S]*?(?:-----END[^\\n]*-----|$)`
        : rule.pattern.source;
    return new RegExp(
      source,
      rule.pattern.flags.includes('g') ? rule.pattern.flags : `${rule.pattern.flags}g`,
    );
  });
  let out = text;
  let lowered: string | undefined;
  SECRET_CONTENT_RULES.forEach((rule, i) => {
    const pattern = globalPatterns![i];
    if (!pattern) return;
    let searched = out;
    if (rule.anyCase) {
      lowered ??= out.toLowerCase();
      searched = lowered;
    }
    if (!rule.hints.some((hint) => searched.includes(hint))) return;
    const next = out.replace(pattern, replacement);
    if (next !== out) lowered = undefined;
    out = next;
  });
  return out;
}

/**
 * How much of a file is read to look for credentials: all of it up to 64 MiB (a token pasted after
 * a megabyte of padding was read and searched when only the head was), in chunks of SCAN_CHUNK_BYTES
 * that overlap by SCAN_OVERLAP_BYTES or by the run of token characters a chunk ends with, whichever
 * is longer (a token across a chunk's end is whole in the next, a JWT of any length too). A larger
 * file is not scanned and counts as unscanned, not clean. Each file is scanned once while it is
 * unchanged; the table runs ~13 ms per MiB of text full of URLs, far less on most.
 */
export const SECRET_SCAN_BYTES = 64 * 1024 * 1024;
const SCAN_CHUNK_BYTES = 1024 * 1024;
const SCAN_OVERLAP_BYTES = 4096;

/**
 * Scans already made, by what identifies a file's content: device, inode, size, and the change and
 * modification times in nanoseconds. Any write changes ctime (which no call can set back), a file
 * swapped in is another inode, so a key that still matches is the content that was scanned.
 */
const scans = new Map<string, string | null>();
const MAX_SCANS = 512;
/**
 * A file changed less than this long before its scan began is not remembered: file times tick
 * coarsely (a jiffy, up to 10 ms), so a second write in the same tick would keep the key ("racy
 * git"). Past the margin, any later write has a later ctime.
 */
const SETTLED_MS = 50;

function contentKey(info: BigIntStats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * Why a regular file holds a secret by its content, or null (not a file, unreadable, nothing found).
 * Reads at most SECRET_SCAN_BYTES, without following the file to something that is not a regular file.
 * A file scanned before and unchanged since costs one stat, made synchronously (a system call of a
 * few µs, where a hop to libuv's thread pool and back costs several times that); only a scan reads.
 */
export async function fileSecretContentReason(
  path: string,
  /** The clock the settled margin is read on (tests move it). */
  now: () => number = Date.now,
): Promise<string | null> {
  const known = knownSecretContentReason(path);
  return known !== undefined ? known : scanFile(path, now());
}

/**
 * fileSecretContentReason's answer when it needs no read (not a regular file, or a file scanned
 * before and unchanged since), with no promise; undefined when the file must be scanned.
 */
export function knownSecretContentReason(path: string): string | null | undefined {
  let info: BigIntStats | undefined;
  try {
    // stat opens nothing: a FIFO put where a file was expected cannot hold the decision.
    info = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!info?.isFile()) return null;
  const key = contentKey(info);
  const known = scans.get(key);
  if (known === undefined) return undefined;
  // Most recently used last: the oldest scan is the one dropped.
  scans.delete(key);
  scans.set(key, known);
  return known;
}

/** Opens, checks and reads the file, and remembers the scan under the key of what was read. */
async function scanFile(path: string, started: number): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // Non-blocking: a FIFO put where a file was expected must not hold the decision.
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat({ bigint: true });
    if (!info.isFile()) return null;
    const reason = await scanOpenFile(handle, Number(info.size));
    const changed = Number(info.ctimeNs / 1_000_000n);
    if (changed < started - SETTLED_MS) remember(contentKey(info), reason);
    return reason;
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * The scan of an open file of `size` bytes, chunk by chunk. A file whose bytes say it is compressed
 * or an archive, or that is larger than SECRET_SCAN_BYTES, is not clean but unscanned: its reason
 * says so, and it is asked about like a secret (a `.env` in `backup.tar.gz`, a token after 64 MiB).
 */
async function scanOpenFile(handle: FileHandle, size: number): Promise<string | null> {
  let buffer = Buffer.alloc(Math.min(size, SCAN_CHUNK_BYTES));
  let length = buffer.length;
  let utf16 = false;
  for (let at = 0; at < size; ) {
    if (buffer.length < length) buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, Math.min(length, size - at), at);
    if (bytesRead === 0) break;
    const bytes = buffer.subarray(0, bytesRead);
    if (at === 0) {
      const packed = packedFormat(bytes);
      if (packed !== null) return `is ${packed}, whose content is not scanned for secrets`;
      if (size > SECRET_SCAN_BYTES)
        return `is larger than the ${SECRET_SCAN_BYTES / MIB} MiB scanned for secrets`;
      utf16 = isUtf16(bytes);
    }
    // UTF-16 text (a BOM, or NULs between ASCII letters): its NULs taken out, the ASCII formats
    // of the table read as they do in UTF-8.
    const text = utf16 ? withoutNuls(bytes) : bytes.toString('latin1');
    const reason = secretContentReason(text);
    if (reason !== null) return reason;
    if (at + bytesRead >= size) break;
    // The next chunk starts far enough back to hold whole any match that runs into this one's end:
    // the overlap, or the run of token characters the chunk ends with (a JWT has no length bound).
    const carry = Math.max(SCAN_OVERLAP_BYTES, trailingTokenChars(text) * (utf16 ? 2 : 1));
    if (carry >= bytesRead) {
      // One run of token characters the whole chunk long: read twice as much from the same place.
      length = Math.min(length * 2, SECRET_SCAN_BYTES);
      continue;
    }
    at += bytesRead - carry;
    length = SCAN_CHUNK_BYTES;
  }
  return null;
}

const MIB = 1024 * 1024;

/**
 * Why bytes held in memory (a blob of git's object store) hold a secret by content, or null: the
 * table, over the text decoded as a file's scan decodes it (UTF-16 made plain).
 */
export function bytesSecretContentReason(bytes: Buffer): string | null {
  return secretContentReason(isUtf16(bytes) ? withoutNuls(bytes) : bytes.toString('latin1'));
}

/** Characters of the formats with no bounded length (JWT, base64 and URL-safe tokens). */
function isTokenChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 45 || // -
    code === 46 || // .
    code === 95 || // _
    code === 43 || // +
    code === 47 || // /
    code === 61 // =
  );
}

function trailingTokenChars(text: string): number {
  let i = text.length;
  while (i > 0 && isTokenChar(text.charCodeAt(i - 1))) i--;
  return text.length - i;
}

/**
 * What a file is by its first bytes when its content is compressed (so the table cannot read it)
 * or an archive (whose members' names are not checked), or null.
 */
function packedFormat(head: Buffer): string | null {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x1f, 0x8b)) return 'gzip-compressed';
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) return 'a zip archive';
  if (starts(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)) return 'xz-compressed';
  if (starts(0x42, 0x5a, 0x68)) return 'bzip2-compressed';
  if (starts(0x28, 0xb5, 0x2f, 0xfd)) return 'zstd-compressed';
  if (starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) return 'a 7z archive';
  if (starts(0x04, 0x22, 0x4d, 0x18)) return 'lz4-compressed';
  if (starts(0x5d, 0x00, 0x00)) return 'lzma-compressed';
  // A plain tar: "ustar" at 257 in its first header.
  if (head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'a tar archive';
  return null;
}

/**
 * Whether a file's first chunk is UTF-16: a byte-order mark, or (no mark) NULs in at least
 * three in eight of the odd or of the even bytes of its head, as ASCII text in UTF-16 has.
 */
function isUtf16(head: Buffer): boolean {
  if (head.length < 2) return false;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  const sample = Math.min(head.length, 1024) & ~1;
  if (sample < 16) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < sample; i += 2) {
    if (head[i] === 0) even++;
    if (head[i + 1] === 0) odd++;
  }
  const pairs = sample / 2;
  // Binary files have NULs too, but on both sides: one side mostly NUL and the other mostly not.
  return (odd * 8 >= pairs * 3 && even * 8 < pairs) || (even * 8 >= pairs * 3 && odd * 8 < pairs);
}

/** The bytes as Latin-1 text with every NUL left out (ASCII in UTF-16, either order, made plain). */
function withoutNuls(bytes: Buffer): string {
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) out[n++] = bytes[i]!;
  return out.toString('latin1', 0, n);
}

function remember(key: string, reason: string | null): void {
  scans.set(key, reason);
  if (scans.size > MAX_SCANS) {
    const oldest = scans.keys().next().value;
    if (oldest !== undefined) scans.delete(oldest);
  }
}
