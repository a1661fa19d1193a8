import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type ArchiveManifest, archiveManifestSchema } from './archive-manifest.js';
import { MANIFEST_NAME, shownEntryName } from './archive-paths.js';
import { ArchiveError, type ArchiveLimits, type ExtractedFile, extractSessionZip } from './extract-zip.js';

/** Where imported session archives are unpacked, one folder per session (as Kimi CLI's vis). */
export function importedSessionsDir(home: string): string {
  return join(home, 'imported_sessions');
}

export interface ImportedSession {
  /** The folder's name under `imported_sessions/`: the session's id, or `<id>-N` when that is taken. */
  id: string;
  dir: string;
  /** The same archive was imported before; its folder is reused as it is. */
  alreadyImported: boolean;
  manifest: ArchiveManifest;
}

/**
 * Imports a session archive (`kimi-ts export --zip`) into `<home>/imported_sessions/<id>/`. It is
 * unpacked into a temporary folder beside it, checked against its manifest (every file listed,
 * none more, sizes and sha256 equal, a wire.jsonl among them) and only then renamed into place, so
 * a damaged, hostile or foreign archive leaves nothing behind. The same archive imported again
 * finds its folder; another session with the same id gets `<id>-2`, `-3`, …
 */
export async function importSessionZip(options: {
  zipPath: string;
  home: string;
  limits?: ArchiveLimits | undefined;
  signal?: AbortSignal | undefined;
}): Promise<ImportedSession> {
  const root = importedSessionsDir(options.home);
  await mkdir(root, { recursive: true, mode: 0o700 });
  await removeStaleTemporaries(root);
  // A name starting with '.' is never a session id: the catalog never lists a folder half made.
  const temp = await mkdtemp(join(root, '.import-'));
  try {
    const extracted = await extractSessionZip(options.zipPath, temp, options);
    const manifestBytes = await manifestOf(temp, extracted);
    const manifest = parseManifest(manifestBytes);
    checkFiles(manifest, extracted);
    return await placeImport(root, temp, manifest, manifestBytes, options.home);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** What a crashed import or upload left (`.import-*`, `.upload-*`) over an hour ago: nobody is using it. */
async function removeStaleTemporaries(root: string): Promise<void> {
  const hourAgo = Date.now() - 60 * 60 * 1000;
  for (const name of await readdir(root).catch(() => [])) {
    if (!/^\.(import|upload)-/.test(name)) continue;
    const path = join(root, name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < hourAgo) await rm(path, { recursive: true, force: true }).catch(() => {});
  }
}

async function manifestOf(temp: string, extracted: Map<string, ExtractedFile>): Promise<Buffer> {
  const info = extracted.get(MANIFEST_NAME);
  if (!info) throw new ArchiveError('This is not a kimi-ts session archive: it has no manifest.json.');
  if (info.size > 4 * 1024 * 1024) throw new ArchiveError('The manifest.json of the archive is too large.');
  return readFile(join(temp, MANIFEST_NAME));
}

function parseManifest(bytes: Buffer): ArchiveManifest {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ArchiveError('The manifest.json of the archive is not JSON.');
  }
  const parsed = archiveManifestSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first ? first.path.join('.') || 'its top level' : 'its top level';
    throw new ArchiveError(`This is not a kimi-ts session archive: its manifest.json is wrong at ${where}.`);
  }
  return parsed.data;
}

/** The files unpacked are exactly the manifest's, byte for byte. */
function checkFiles(manifest: ArchiveManifest, extracted: Map<string, ExtractedFile>): void {
  const listed = new Set<string>();
  for (const file of manifest.files) {
    if (listed.has(file.path))
      throw new ArchiveError(`The manifest lists ${shownEntryName(file.path)} twice.`);
    listed.add(file.path);
    const found = extracted.get(file.path);
    if (!found) throw new ArchiveError(`The archive is missing ${shownEntryName(file.path)}.`);
    if (found.size !== file.size || found.sha256 !== file.sha256) {
      throw new ArchiveError(
        `${shownEntryName(file.path)} in the archive does not match its manifest (damaged?).`,
      );
    }
  }
  for (const path of extracted.keys()) {
    if (path !== MANIFEST_NAME && !listed.has(path)) {
      throw new ArchiveError(`${shownEntryName(path)} is in the archive but not in its manifest.`);
    }
  }
  if (!listed.has('wire.jsonl'))
    throw new ArchiveError('The archive holds no wire.jsonl: there is no session in it.');
}

async function placeImport(
  root: string,
  temp: string,
  manifest: ArchiveManifest,
  manifestBytes: Buffer,
  home: string,
): Promise<ImportedSession> {
  const homeIds = await homeSessionIds(home);
  for (let n = 1; n <= 100; n++) {
    const id = n === 1 ? manifest.session_id : `${manifest.session_id}-${n}`;
    const dir = join(root, id);
    if (existsSync(dir)) {
      const before = await readFile(join(dir, MANIFEST_NAME)).catch(() => null);
      if (before?.equals(manifestBytes)) return { id, dir, alreadyImported: true, manifest };
      continue;
    }
    // A session of this home with the id keeps it: the import takes the next name.
    if (homeIds.has(id)) continue;
    try {
      // Atomic: another import that got there first makes this fail, and the loop tries the next name.
      await rename(temp, dir);
      return { id, dir, alreadyImported: false, manifest };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
    }
  }
  throw new ArchiveError(`Too many imported sessions named ${manifest.session_id}.`);
}

async function homeSessionIds(home: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const sessions = join(home, 'sessions');
  for (const key of await readdir(sessions).catch(() => [])) {
    for (const id of await readdir(join(sessions, key)).catch(() => [])) ids.add(id);
  }
  return ids;
}
