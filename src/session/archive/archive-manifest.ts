import { z } from 'zod';
import { isValidSessionId } from '../session.js';
import { isArchivedSessionPath } from './archive-paths.js';

/** What the `format` field of every kimi-ts session archive says. */
export const ARCHIVE_FORMAT = 'kimi-ts-session-archive';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

export const archiveManifestSchema = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  format_version: z.literal(1),
  kimi_ts_version: z.string().max(64),
  session_id: z.string().refine(isValidSessionId, 'not a session id'),
  work_dir: z.string().max(4096),
  title: z.string().max(1000).nullable(),
  /** When the session began (its first wire record), ISO 8601; null for a session with no record. */
  created_at: z.string().max(64).nullable(),
  exported_at: z.string().max(64),
  files: z
    .array(
      z.object({
        path: z.string().refine(isArchivedSessionPath, 'not a file a session archive carries'),
        size: z.number().int().nonnegative(),
        sha256: sha256Hex,
      }),
    )
    .max(10_000),
});

/** The `manifest.json` of a session archive: where it came from and a digest of every file. */
export type ArchiveManifest = z.infer<typeof archiveManifestSchema>;
