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
    };
  } catch {
    return null;
  }
}
