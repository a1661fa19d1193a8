import { readdir, readFile } from 'node:fs/promises';
import { platform, release } from 'node:os';
import { join } from 'node:path';
import { readAgentsMd } from './agents-md.js';
import type { ContextFileGuard } from './context-file-guard.js';
import { type Skill, skillsPromptList } from './skills.js';

const ROOT_ENTRIES = 30;
const CHILD_ENTRIES = 10;

export interface SystemPromptVarsInput {
  workDir: string;
  additionalDirs: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  now?: Date;
  /** The skills found for the work dir (`${KIMI_SKILLS}`). */
  skills?: readonly Skill[] | undefined;
  /** What AGENTS.md files may be read (by real path: no secret file, nothing outside the project). */
  contextFiles: ContextFileGuard;
}

/** The built-in `${VAR}` values of a system prompt template (reference §1.21). */
export async function builtinPromptVars(input: SystemPromptVarsInput): Promise<Record<string, string>> {
  const { workDir, additionalDirs, env } = input;
  return {
    KIMI_NOW: (input.now ?? new Date()).toISOString(),
    KIMI_WORK_DIR: workDir,
    KIMI_WORK_DIR_LS: await listTwoLevels(workDir),
    KIMI_AGENTS_MD: (await readAgentsMd(workDir, input.contextFiles)) || '(no AGENTS.md in the project)',
    KIMI_OS: `${platform()} ${release()}`,
    KIMI_SHELL: env.SHELL || '/bin/bash',
    KIMI_ADDITIONAL_DIRS_INFO: additionalDirs.length
      ? `- Additional directories you may work in: ${additionalDirs.join(', ')}`
      : '',
    KIMI_SKILLS: skillsPromptList(input.skills ?? []),
    // Subagent specs fill this (`system_prompt_args`) with the text that tells the model its role.
    KIMI_ROLE_ADDITIONAL: '',
  };
}

/** Fills `${NAME}` placeholders; unknown names are kept as written. */
export function renderTemplate(template: string, vars: Readonly<Record<string, string>>): string {
  return template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => vars[name] ?? whole);
}

export async function renderSystemPrompt(
  templateFile: string,
  input: SystemPromptVarsInput,
  args: Readonly<Record<string, string>> = {},
): Promise<string> {
  const template = await readFile(templateFile, 'utf8');
  return renderTemplate(template, { ...(await builtinPromptVars(input)), ...args });
}

async function entries(dir: string, max: number): Promise<{ lines: string[]; dirs: string[] }> {
  let list: import('node:fs').Dirent[];
  try {
    list = await readdir(dir, { withFileTypes: true });
  } catch {
    return { lines: [], dirs: [] };
  }
  const visible = list.filter((e) => e.name !== '.git' && e.name !== 'node_modules');
  // Folders first, then by code point: a locale-aware compare would set up an ICU collator (several
  // milliseconds of every start) for an order the model does not care about.
  visible.sort(
    (a, b) =>
      Number(b.isDirectory()) - Number(a.isDirectory()) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const shown = visible.slice(0, max);
  const lines = shown.map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
  if (visible.length > max) lines.push(`... and ${visible.length - max} more`);
  return { lines, dirs: shown.filter((e) => e.isDirectory()).map((e) => e.name) };
}

/** A two-level listing: root entries (at most 30) and the children of each listed folder (at most 10). */
export async function listTwoLevels(workDir: string): Promise<string> {
  const root = await entries(workDir, ROOT_ENTRIES);
  const childrenOf = new Map(
    await Promise.all(
      root.dirs.map(async (dir) => [dir, await entries(join(workDir, dir), CHILD_ENTRIES)] as const),
    ),
  );
  const out: string[] = [];
  for (const line of root.lines) {
    out.push(line);
    const children = line.endsWith('/') ? childrenOf.get(line.slice(0, -1)) : undefined;
    for (const child of children?.lines ?? []) out.push(`  ${child}`);
  }
  return out.join('\n') || '(empty)';
}
