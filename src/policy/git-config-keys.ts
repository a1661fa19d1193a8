import { runGitProcess } from '../util/git-process.js';

/**
 * The settings of a repository's `config` that run nothing, whoever wrote them: what `git init`,
 * `git clone`, `git remote add`, `git branch -u` and `git config user.*` write. Everything else is
 * treated as able to run a program when the person later uses git there — `core.fsmonitor`,
 * `core.hooksPath`, `core.sshCommand`, `core.pager`, `core.editor`, `pager.*`, `alias.*`, filter,
 * diff and merge drivers, `credential.helper`, `gpg.program`, `include.path`, `remote.*.uploadpack`,
 * `submodule.*.update = !cmd`, … — an allow list, since git keeps adding settings that name programs.
 * Keys are `section.name` (the subsection, e.g. a remote's name, is left out), lower case as git lists them.
 */
const PLAIN_SETTINGS = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.eol',
  'core.safecrlf',
  'core.sharedrepository',
  'core.quotepath',
  'core.checkstat',
  'core.trustctime',
  'extensions.objectformat',
  'extensions.worktreeconfig',
  'extensions.refstorage',
  'extensions.preciousobjects',
  'extensions.partialclone',
  'extensions.noop',
  'remote.url',
  'remote.pushurl',
  'remote.fetch',
  'remote.push',
  'remote.tagopt',
  'remote.mirror',
  'remote.prune',
  'remote.promisor',
  'remote.partialclonefilter',
  'branch.remote',
  'branch.merge',
  'branch.rebase',
  'branch.pushremote',
  'branch.description',
  'user.name',
  'user.email',
  'init.defaultbranch',
  'pull.rebase',
  'pull.ff',
  'push.default',
  'push.autosetupremote',
  'fetch.prune',
  'submodule.url',
  'submodule.active',
  'gc.auto',
  'index.version',
  'lfs.repositoryformatversion',
]);

/** One setting of a config file, as git lists it. */
export interface ConfigEntry {
  readonly section: string;
  /** The subsection as written (case kept), or null. */
  readonly subsection: string | null;
  readonly name: string;
  /** null for a bare `key` line (git reads it as true). */
  readonly value: string | null;
}

/** `section.name`, or `section.*.name`: never the subsection (a URL there may hold a token). */
export function settingName(entry: ConfigEntry): string {
  return entry.subsection === null ? `${entry.section}.${entry.name}` : `${entry.section}.*.${entry.name}`;
}

export function isPlainSetting(entry: ConfigEntry): boolean {
  return PLAIN_SETTINGS.has(`${entry.section}.${entry.name}`);
}

/** isPlainSetting for a lower-case `section.name` (the subsection left out). */
export function isPlainSettingName(sectionAndName: string): boolean {
  return PLAIN_SETTINGS.has(sectionAndName);
}

/**
 * The settings of a config file's text, read by git itself (`--file -`: that text only,
 * `include.path` not followed; reading runs nothing). null when git cannot read it (no git here, a
 * malformed file).
 */
export async function readConfigEntries(
  text: string,
  path: string | undefined,
): Promise<ConfigEntry[] | null> {
  let stdout: Buffer;
  try {
    ({ stdout } = await runGitProcess(['config', '--file', '-', '--no-includes', '--list', '-z'], {
      cwd: '/',
      input: text,
      env: { PATH: path, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      settings: [],
      timeoutMs: 5_000,
      failure: (message) => new Error(message),
      missing: 'git is not installed.',
    }));
  } catch {
    return null;
  }
  const entries: ConfigEntry[] = [];
  for (const record of stdout.toString('utf8').split('\0')) {
    if (record === '') continue;
    const newline = record.indexOf('\n');
    const key = newline === -1 ? record : record.slice(0, newline);
    const value = newline === -1 ? null : record.slice(newline + 1);
    const first = key.indexOf('.');
    const last = key.lastIndexOf('.');
    if (first <= 0 || last === key.length - 1) return null;
    entries.push({
      section: key.slice(0, first).toLowerCase(),
      subsection: first === last ? null : key.slice(first + 1, last),
      name: key.slice(last + 1).toLowerCase(),
      value,
    });
  }
  return entries;
}

/** A config file holding `entries`, grouped by section in their order. */
export function configText(entries: readonly ConfigEntry[]): string {
  const quote = (text: string) =>
    `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
  const sections = new Map<string, string[]>();
  for (const entry of entries) {
    const header =
      entry.subsection === null
        ? `[${entry.section}]`
        : `[${entry.section} "${entry.subsection.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
    const lines = sections.get(header) ?? [];
    lines.push(`\t${entry.name} = ${entry.value === null ? 'true' : quote(entry.value)}`);
    sections.set(header, lines);
  }
  return [...sections].map(([header, lines]) => `${header}\n${lines.join('\n')}\n`).join('');
}
