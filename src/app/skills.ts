import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { MaxStepsReached } from '../soul/errors.js';
import { parseD2Flow } from '../soul/flows/d2.js';
import { buildFlow, type Flow } from '../soul/flows/flow.js';
import { parseMermaidFlow } from '../soul/flows/mermaid.js';
import { MAX_FLOW_MOVES, runFlow } from '../soul/flows/run-flow.js';
import type { SlashCommand } from '../soul/slash-commands.js';
import { isDirectory } from '../util/is-directory.js';
import type { ContextFileGuard } from './context-file-guard.js';
import { findGitRoot } from './project-root.js';

/**
 * A skill: a folder (or a single Markdown file) of instructions for one kind of task, in the format
 * Kimi CLI, Claude Code and Codex share: `<name>/SKILL.md` with a `name` and `description` in its
 * front matter. The model sees the list and reads a skill's file when it fits the task; the user
 * can also invoke one with `/skill:<name>`.
 */
export interface Skill {
  name: string;
  description: string;
  /** A flow skill's flowchart (`type: flow`); absent for a standard skill. */
  flow?: Flow | undefined;
  /** The SKILL.md (or flat `<name>.md`) file. */
  file: string;
  /** Where the skill's other files live. */
  dir: string;
}

export interface SkillSearch {
  workDir: string;
  /** The user's home folder (`~`). */
  userHome: string;
  /** kimi-ts's own folder (`~/.kimi-ts`): its `skills/` comes first among the user's. */
  kimiTsHome: string;
  /** `extra_skill_dirs` of the config. */
  extraDirs: readonly string[];
  /**
   * `merge_all_available_skills`: take the skills of every agent's folder (`.kimi`, `.claude`,
   * `.codex`), or only of the first that exists.
   */
  mergeAll: boolean;
  /** `--skills-dir`: the one folder searched instead of the project's and the user's. */
  skillsDir?: string | undefined;
  /** What skill files may be read: by real path, none outside the project or the person's own folders, no secret file. */
  guard: ContextFileGuard;
}

const BRAND_FOLDERS = ['.kimi', '.claude', '.codex'];

/**
 * The skills available in a work dir, by name (case-insensitive): a project's skills (from the root
 * of its git project) win over the user's, the user's over `extra_skill_dirs`. Unreadable folders
 * and files without usable front matter are skipped.
 */
export async function discoverSkills(search: SkillSearch): Promise<Skill[]> {
  const roots = search.skillsDir ? [search.skillsDir, ...search.extraDirs] : await defaultRoots(search);
  const byName = new Map<string, Skill>();
  for (const root of roots) {
    for (const skill of await skillsIn(root, search.guard)) {
      const key = skill.name.toLowerCase();
      if (!byName.has(key)) byName.set(key, skill);
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The person's own skill folders (kimi-ts's first), whether they exist or not. */
export function ownSkillFolders(userHome: string, kimiTsHome: string): string[] {
  return [
    join(kimiTsHome, 'skills'),
    ...BRAND_FOLDERS.map((brand) => join(userHome, brand, 'skills')),
    join(userHome, '.config', 'agents', 'skills'),
    join(userHome, '.agents', 'skills'),
  ];
}

/** The project's skill folders, then the user's, then the extra ones: the first to name a skill wins. */
async function defaultRoots(search: SkillSearch): Promise<string[]> {
  const projectRoot = (await findGitRoot(search.workDir)) ?? search.workDir;
  const project = await layer(
    BRAND_FOLDERS.map((brand) => join(projectRoot, brand, 'skills')),
    [join(projectRoot, '.agents', 'skills')],
    search.mergeAll,
  );
  const user = await layer(
    [
      join(search.kimiTsHome, 'skills'),
      ...BRAND_FOLDERS.map((brand) => join(search.userHome, brand, 'skills')),
    ],
    [join(search.userHome, '.config', 'agents', 'skills'), join(search.userHome, '.agents', 'skills')],
    search.mergeAll,
  );
  return [...project, ...user, ...search.extraDirs];
}

/** The skill roots of one layer: the agents' own folders (all, or the first that exists), then the generic ones. */
async function layer(brand: string[], generic: string[], mergeAll: boolean): Promise<string[]> {
  const existing = (
    await Promise.all(brand.map(async (dir) => ((await isDirectory(dir)) ? dir : null)))
  ).filter((dir): dir is string => dir !== null);
  return [...(mergeAll ? existing : existing.slice(0, 1)), ...generic];
}

async function skillsIn(root: string, guard: ContextFileGuard): Promise<Skill[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const found = await Promise.all(
    entries.map(async (entry) => {
      if (entry.isDirectory()) return readSkill(join(root, entry.name, 'SKILL.md'), entry.name, guard);
      if (entry.isFile() && entry.name.endsWith('.md')) {
        return readSkill(join(root, entry.name), basename(entry.name, '.md'), guard);
      }
      return null;
    }),
  );
  return found.filter((skill): skill is Skill => skill !== null);
}

async function readSkill(file: string, fallbackName: string, guard: ContextFileGuard): Promise<Skill | null> {
  const read = await guard.readOrReport(file, 'project').catch(() => null);
  if (read?.kind !== 'read') return null;
  const text = read.bytes.toString('utf8');
  const front = await frontMatter(text);
  if (front === null) return null;
  const name = typeof front.name === 'string' && front.name.trim() ? front.name.trim() : fallbackName;
  const description =
    typeof front.description === 'string' && front.description.trim()
      ? front.description.trim()
      : 'No description provided.';
  const skill: Skill = { name, description, file, dir: dirname(file) };
  // A flow skill whose flowchart cannot be read stays usable as a standard skill.
  if (front.type === 'flow') skill.flow = flowOf(text) ?? undefined;
  return skill;
}

/**
 * The YAML front matter of a Markdown text; {} without one, null when it is not valid YAML mapping.
 * The YAML parser (~90 modules) loads with the first front matter: a session without skills (and
 * the built-in agent specs, read from their JSON twins) never needs it before its first request.
 */
async function frontMatter(text: string): Promise<Record<string, unknown> | null> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  if (!match) return {};
  const { parse: parseYaml } = await import('yaml');
  try {
    const value: unknown = parseYaml(match[1] ?? '');
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The flow of the first ```mermaid or ```d2 block of a SKILL.md; null without a usable one. */
function flowOf(text: string): Flow | null {
  const block = /^(`{3,}|~{3,})[ \t]*(mermaid|d2)\b[^\n]*\n([\s\S]*?)^\1[ \t]*$/m.exec(text);
  if (!block) return null;
  try {
    return buildFlow(block[2] === 'mermaid' ? parseMermaidFlow(block[3]!) : parseD2Flow(block[3]!));
  } catch {
    // Whatever is wrong with a flowchart (FlowError says what), one skill file must not stop a session.
    return null;
  }
}

/** The `${KIMI_SKILLS}` text of the system prompt: the skills the model can read and follow (not flows). */
export function skillsPromptList(skills: readonly Skill[]): string {
  const listed = skills.filter((s) => !s.flow);
  if (listed.length === 0) return '(no skills are installed)';
  return listed.map((s) => `- ${s.name}: ${s.description}\n  File: ${s.file}`).join('\n');
}

/**
 * `/skill:<name> [request]` for every skill whose name can be typed as one: the turn's prompt is the
 * SKILL.md text, then the user's request (Kimi CLI's form).
 */
export function skillCommands(skills: readonly Skill[], guard: ContextFileGuard): SlashCommand[] {
  return skills
    .filter((skill) => /^[A-Za-z0-9_-]+$/.test(skill.name))
    .map((skill) =>
      skill.flow ? flowCommand(skill.name, skill.description, skill.flow) : standardCommand(skill, guard),
    );
}

/** `/flow:<name>`: walks the flow, each node a turn (see runFlow). */
function flowCommand(name: string, description: string, flow: Flow): SlashCommand {
  return {
    name: `flow:${name}`,
    description,
    aliases: [],
    async run({ soul, signal }) {
      const run = await runFlow(flow, (input) => soul.runAgentTurn(input, signal), soul.send);
      if (run.end === 'max_moves') throw new MaxStepsReached(MAX_FLOW_MOVES);
    },
  };
}

function standardCommand(skill: Skill, guard: ContextFileGuard): SlashCommand {
  return {
    name: `skill:${skill.name}`,
    description: skill.description,
    aliases: [],
    // Read when invoked, so an edited skill is used as it is now; checked again for the same reason.
    expand: async ({ args }) => {
      const read = await guard.read(skill.file, 'project');
      switch (read.kind) {
        case 'missing':
          throw new Error(`The skill file ${skill.file} is gone.`);
        case 'refused':
          throw new Error(`The skill file ${skill.file} is not read: ${read.reason}.`);
        case 'read':
          break;
      }
      const text = read.bytes.toString('utf8').trim();
      return args.trim() ? `${text}\n\nUser request:\n${args.trim()}` : text;
    },
  };
}
