import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Message } from '../kosong/message.js';
import type { SensitiveHomes } from '../policy/index.js';
import { type Session, sessionAt } from '../session/session.js';
import { matchSessionId, sessionIdProblem } from '../session/session-id-match.js';
import { loadContextBytes } from '../soul/context/load-context-file.js';
import { type SlashCommand, say } from '../soul/slash-commands.js';
import { expandHome } from '../tools/file/workspace-path.js';
import { isDirectory } from '../util/is-directory.js';
import type { ContextFileGuard } from './context-file-guard.js';
import { conversationMarkdown } from './conversation-markdown.js';
import { type ProtectedCheck, writeExportFile } from './export-file.js';

/** The largest file `/import` takes (bytes): it goes into the context whole. */
export const IMPORT_MAX_BYTES = 256 * 1024;

export interface ConversationCommandsOptions {
  session: Session;
  /** kimi-ts's folder (to find the work dir's other sessions). */
  home: string;
  title(): string | null;
  /** Set (a fleet job's session): `/export` and `/import` of a file say this and do nothing. */
  filesRefused?: string | undefined;
  /** What `/import` may read: any file the person names, but never a secret one (by real path). */
  contextFiles: ContextFileGuard;
  /** What `/export` may not write over: secret and protected files (by real path), symlinks. */
  exportChecks: { homes: SensitiveHomes; protectedReason: ProtectedCheck };
}

/**
 * `/export [path]` writes the conversation as Markdown (by default `kimi-export-<id>-<time>.md` in
 * the work dir); `/import <file | session id>` puts a text file, or another session's conversation,
 * into the context as a system message for the model to refer to.
 */
export function conversationCommands(options: ConversationCommandsOptions): SlashCommand[] {
  const { session } = options;
  return [
    {
      name: 'export',
      description: 'Write the conversation to a Markdown file: /export [path]',
      aliases: [],
      async run({ soul, args }) {
        if (options.filesRefused) return say(soul, options.filesRefused);
        const now = new Date();
        const defaultName = `kimi-export-${session.id.slice(0, 8)}-${now.toISOString().replace(/[:.]/g, '-')}.md`;
        let target = args.trim() ? resolve(session.workDir, expandHome(args.trim())) : session.workDir;
        if (await isDirectory(target)) target = join(target, defaultName);
        const markdown = conversationMarkdown(soul.context.history, {
          title: options.title() ?? 'kimi-ts session',
          sessionId: session.id,
          workDir: session.workDir,
          exportedAt: now,
        });
        let written: Awaited<ReturnType<typeof writeExportFile>>;
        try {
          written = await writeExportFile(target, markdown, options.exportChecks);
        } catch (error) {
          say(soul, `Could not write ${target}: ${(error as Error).message}`);
          return;
        }
        switch (written.kind) {
          case 'refused':
            say(soul, `Could not export to ${target}. ${written.problem}`);
            return;
          case 'written':
            say(soul, `The conversation was written to ${written.file}.`);
            return;
        }
      },
    },
    {
      name: 'import',
      description:
        'Give the model a text file or another session of this directory as reference: /import <file | session id>',
      aliases: [],
      async run({ soul, args }) {
        const target = args.trim();
        if (!target) {
          say(soul, 'Usage: /import <file | session id>');
          return;
        }
        const imported = await importable(target, options);
        if ('problem' in imported) {
          say(soul, imported.problem);
          return;
        }
        await soul.context.appendMessages({
          role: 'system',
          content: [
            { type: 'text', text: `The user imported ${imported.what} as reference:\n\n${imported.text}` },
          ],
        });
        say(soul, `Imported ${imported.what}.`);
      },
    },
  ];
}

/** A file (when one has that path) or else a session of this work dir with that id, as text for the model. */
async function importable(
  target: string,
  options: ConversationCommandsOptions,
): Promise<{ what: string; text: string } | { problem: string }> {
  const { session } = options;
  const path = resolve(session.workDir, expandHome(target));
  const info = await stat(path).catch(() => null);
  if (info && options.filesRefused) return { problem: options.filesRefused };
  if (info?.isDirectory()) return { problem: `${target} is a directory, not a file.` };
  if (info) {
    if (info.size > IMPORT_MAX_BYTES) {
      return {
        problem: `${target} is too large to import (${info.size} bytes; at most ${IMPORT_MAX_BYTES}).`,
      };
    }
    // By the real path of what is opened: a symlink a command planted (notes.md → ~/.ssh/id_rsa)
    // does not hand a secret file to the model unasked.
    const read = await options.contextFiles.read(path, 'anywhere');
    switch (read.kind) {
      case 'missing':
        return { problem: `${target} is not a regular file that can be read.` };
      case 'refused':
        return { problem: `${target} is not imported: ${read.reason}.` };
      case 'read':
        break;
    }
    const { bytes } = read;
    if (bytes.length > IMPORT_MAX_BYTES)
      return { problem: `${target} is too large to import (more than ${IMPORT_MAX_BYTES} bytes).` };
    if (looksBinary(bytes)) return { problem: `${target} is not a text file.` };
    return { what: path, text: bytes.toString('utf8') };
  }
  // A session of this directory by its id or a unique prefix of it (the lists show 8 characters).
  const match = await matchSessionId({ home: options.home, workDir: session.workDir }, target);
  if (match.kind === 'ambiguous') return { problem: sessionIdProblem(match, session.workDir) ?? '' };
  const id = match.kind === 'found' ? match.id : target;
  if (id === session.id) return { problem: 'That is this session: nothing to import.' };
  const bytes =
    match.kind === 'found'
      ? await readFile(sessionAt(options.home, session.workDir, id).contextFile).catch(() => null)
      : null;
  if (!bytes) {
    return { problem: `${target} does not exist (a file path, or the id of a session of this directory).` };
  }
  const history: readonly Message[] = loadContextBytes(bytes).history;
  const text = conversationMarkdown(history, {
    title: `Session ${id}`,
    sessionId: id,
    workDir: session.workDir,
    exportedAt: new Date(),
  });
  return { what: `the conversation of session ${id}`, text };
}

/** A NUL byte in the first 8 KiB: what `git` and `grep` take for a binary file. */
function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}
