/**
 * Folders that hold installed packages, virtual environments and tools' caches, not a person's own
 * files: a package manager or tool makes and replaces them whole. What the work-tree walks make of
 * one differs (nested-git.ts binds no `.git` in one; workspace-secret-walk.ts does not look for the
 * person's secrets in one), each adding folders of its own to these.
 */
export const INSTALLED_CODE_FOLDERS: readonly string[] = [
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
];
