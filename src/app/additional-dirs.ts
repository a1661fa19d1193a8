import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type SlashCommand, say } from '../soul/slash-commands.js';
import { expandHome } from '../tools/file/workspace-path.js';
import { isWithinDirectory } from '../util/path-within.js';
import { listTwoLevels } from './system-prompt.js';
import type { WorkRoots } from './work-roots.js';

/** Whether `raw` (relative to the work dir, `~` allowed) names a folder the agent may be given: its absolute path, or why not. */
export function checkAdditionalDir(
  workDir: string,
  raw: string,
  /** The folders the session may work in at all (a fleet worker's `--work-root`); none: anywhere. */
  roots?: WorkRoots,
): { ok: true; dir: string; inside: boolean } | { ok: false; problem: string } {
  const dir = resolve(workDir, expandHome(raw));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return { ok: false, problem: `${raw} is not an existing directory.` };
  }
  const refusal = roots?.refusal(dir, 'The folder');
  if (refusal) return { ok: false, problem: refusal };
  // Kept by its real path: a symlink on the way that a command re-points later changes nothing.
  const real = realpathSync.native(dir);
  return {
    ok: true,
    dir: real,
    inside: isWithinDirectory(dir, resolve(workDir)) || isWithinDirectory(real, realOrSelf(workDir)),
  };
}

/**
 * `/add-dir [PATH]`: lists the folders the agent may work in besides the work dir, or adds one. The
 * list is the session's own (the file tools read it on every call) and is saved with the session;
 * the model is told about the new folder, with a listing of it, in a system message.
 */
export function addDirCommand(options: {
  workDir: string;
  /** The session's list, changed in place. */
  dirs: string[];
  save(dirs: readonly string[]): Promise<void>;
  roots?: WorkRoots | undefined;
}): SlashCommand {
  const { workDir, dirs } = options;
  return {
    name: 'add-dir',
    description:
      'List the directories the agent may work in besides the working directory, or add one: /add-dir PATH',
    aliases: [],
    async run({ soul, args }) {
      const raw = args.trim();
      if (!raw) {
        say(
          soul,
          dirs.length > 0
            ? `Additional directories:\n${dirs.map((dir) => `- ${dir}`).join('\n')}`
            : 'No additional directories. Add one with /add-dir PATH.',
        );
        return;
      }
      const checked = checkAdditionalDir(workDir, raw, options.roots);
      if (!checked.ok) return say(soul, checked.problem);
      if (checked.inside) return say(soul, `${checked.dir} is inside the working directory already.`);
      if (dirs.includes(checked.dir)) return say(soul, `${checked.dir} was added already.`);
      dirs.push(checked.dir);
      await options.save(dirs);
      await soul.context.appendMessages({
        role: 'system',
        content: [
          {
            type: 'text',
            text: `The user added a directory you may work in: ${checked.dir}\nIt contains (two levels):\n\n${await listTwoLevels(checked.dir)}`,
          },
        ],
      });
      say(soul, `Added ${checked.dir}: the agent may work there too.`);
    },
  };
}

function realOrSelf(folder: string): string {
  try {
    return realpathSync.native(folder);
  } catch {
    return resolve(folder);
  }
}
