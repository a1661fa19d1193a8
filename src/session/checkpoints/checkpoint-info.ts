/** A file a checkpoint did not store, and why (it cannot be restored). */
export interface SkippedFile {
  /** Index of the root (0: the work dir, then the add-dirs). */
  root: number;
  /** Path relative to the root, with `/` separators. */
  path: string;
  reason: 'too_large' | 'sensitive';
}

/** One recorded state of the work tree. */
export interface CheckpointInfo {
  /** The commit id in the store. */
  id: string;
  ref: string;
  /** The top tree (one sub-tree per root). */
  tree: string;
  label: string;
  /** 1-based, per session. */
  seq: number;
  /** Unix time in milliseconds. */
  createdAt: number;
  roots: string[];
  skipped: SkippedFile[];
  /**
   * Permission bits (octal, e.g. "600") of the files whose bits git's two file modes cannot say
   * (anything but 644 and 755), by `<root>/<path>`: a rewind gives a 0600 file back as 0600.
   */
  modes: Record<string, string>;
}

/** Reads a checkpoint's manifest (the commit message); null when it is not one of ours. */
export function parseCheckpointMessage(
  id: string,
  ref: string,
  tree: string,
  message: string,
): CheckpointInfo | null {
  try {
    const parsed = JSON.parse(message) as Partial<CheckpointInfo>;
    if (
      typeof parsed.seq !== 'number' ||
      typeof parsed.createdAt !== 'number' ||
      !Array.isArray(parsed.roots)
    ) {
      return null;
    }
    return {
      id,
      ref,
      tree,
      label: typeof parsed.label === 'string' ? parsed.label : '',
      seq: parsed.seq,
      createdAt: parsed.createdAt,
      roots: parsed.roots.filter((r): r is string => typeof r === 'string'),
      skipped: Array.isArray(parsed.skipped) ? parsed.skipped : [],
      modes: parseModes(parsed.modes),
    };
  } catch {
    return null;
  }
}

/** Only `"<root>/<path>": "<octal>"` entries count; anything else in a manifest is ignored. */
function parseModes(value: unknown): Record<string, string> {
  const modes: Record<string, string> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return modes;
  for (const [key, mode] of Object.entries(value)) {
    if (typeof mode === 'string' && /^[0-7]{3,4}$/.test(mode) && /^\d+\//.test(key)) modes[key] = mode;
  }
  return modes;
}
