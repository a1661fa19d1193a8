import { type BigIntStats, constants, statSync } from 'node:fs';
import { open } from 'node:fs/promises';

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
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/,
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
    pattern: /secret_?access_?key["']?\s*[:=]\s*["']?[A-Za-z0-9/+]{30,60}(?![A-Za-z0-9/+])/i,
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
    if (rule.pattern.test(text)) return `holds ${rule.what}`;
  }
  return null;
}

/**
 * How much of a file is read to look for credentials: all of it up to 64 MiB (a token pasted after
 * a megabyte of padding was read and searched when only the head was), in chunks of SCAN_CHUNK_BYTES
 * that overlap by SCAN_OVERLAP_BYTES (a token across a chunk's end is whole in the next). Each file
 * is scanned once while it is unchanged; the table runs ~13 ms per MiB of text full of URLs, far
 * less on most.
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
  const reason = known !== undefined ? known : await scanFile(path, now());
  if (reason !== null) noteFoundSecret(path);
  return reason;
}

/**
 * The files content scans found secret, by the path they were asked about (the callers' real
 * paths), most recent last: the sandbox hides those inside the workspace from every command
 * (workspace-secret-files.ts), as it hides the files secret by name.
 */
const foundSecrets = new Set<string>();
const MAX_FOUND_SECRETS = 256;

function noteFoundSecret(path: string): void {
  foundSecrets.delete(path);
  foundSecrets.add(path);
  if (foundSecrets.size > MAX_FOUND_SECRETS) {
    const oldest = foundSecrets.values().next().value;
    if (oldest !== undefined) foundSecrets.delete(oldest);
  }
}

/** The paths content scans of this process found secret (see foundSecrets). */
export function secretsFoundByContent(): readonly string[] {
  return [...foundSecrets];
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
    const size = Math.min(Number(info.size), SECRET_SCAN_BYTES);
    const buffer = Buffer.alloc(Math.min(size, SCAN_CHUNK_BYTES));
    let reason: string | null = null;
    for (let at = 0; at < size && reason === null; ) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - at), at);
      if (bytesRead === 0) break;
      reason = secretContentReason(buffer.subarray(0, bytesRead).toString('latin1'));
      if (at + bytesRead >= size) break;
      at += Math.max(1, bytesRead - SCAN_OVERLAP_BYTES);
    }
    const changed = Number(info.ctimeNs / 1_000_000n);
    if (changed < started - SETTLED_MS) remember(contentKey(info), reason);
    return reason;
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function remember(key: string, reason: string | null): void {
  scans.set(key, reason);
  if (scans.size > MAX_SCANS) {
    const oldest = scans.keys().next().value;
    if (oldest !== undefined) scans.delete(oldest);
  }
}
