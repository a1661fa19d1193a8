import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Context } from './context/context.js';
import { Soul } from './soul.js';

const INIT_PROMPT =
  'Study this project (its layout, languages, build and test commands, conventions) and write an ' +
  'AGENTS.md file at the root of the working directory that tells a coding agent what it needs to ' +
  'work here. If AGENTS.md exists, update it rather than starting over. Keep it short and factual.';

/** How much of the written AGENTS.md goes into the session's context. */
const AGENTS_MD_MAX_CHARS = 32 * 1024;

/**
 * `/init`: a temporary soul, with the session's model, tools and system prompt but a context of its
 * own (a scratch file, removed after), studies the project and writes AGENTS.md; its steps show on
 * the current wire. The session's own context then gets only the result: AGENTS.md's content as a
 * system message, not the whole exploration. Returns that content, or null when no AGENTS.md came
 * out of it.
 */
/**
 * A file of the work tree read for the model's context: its bytes, none, or refused (it leads to a
 * secret file or out of the project: a symlink a command made), with why.
 */
export type ProjectFileRead =
  | { kind: 'read'; bytes: Buffer }
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string };

export type InitOutcome =
  | { kind: 'written'; text: string }
  | { kind: 'none' }
  | { kind: 'refused'; reason: string };

export async function runInit(
  soul: Soul,
  workDir: string,
  signal: AbortSignal,
  readProjectFile: (path: string) => Promise<ProjectFileRead>,
): Promise<InitOutcome> {
  const scratch = await mkdtemp(join(tmpdir(), 'kimi-ts-init-'));
  try {
    const context = await Context.restore(join(scratch, 'context.jsonl'));
    try {
      await context.writeSystemPrompt(soul.parts.systemPrompt);
      const temporary = new Soul({
        ...soul.options,
        context,
        // Not the session's soul: it neither ends on a refusal nor takes the session's notifications.
        isRoot: false,
        notifications: undefined,
        slashCommands: undefined,
        autoTitle: undefined,
      });
      await temporary.runAgentTurn(INIT_PROMPT, signal);
    } finally {
      await context.close();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  // The turn's commands may have made AGENTS.md a symlink (to ~/.aws/credentials): read by real path.
  const read = await readProjectFile(join(workDir, 'AGENTS.md')).catch(
    (): ProjectFileRead => ({ kind: 'missing' }),
  );
  switch (read.kind) {
    case 'missing':
      return { kind: 'none' };
    case 'refused':
      return { kind: 'refused', reason: read.reason };
    case 'read':
      break;
  }
  const written = read.bytes.toString('utf8');
  const text =
    written.length > AGENTS_MD_MAX_CHARS ? `${written.slice(0, AGENTS_MD_MAX_CHARS)}\n[truncated]` : written;
  await soul.context.appendMessages({
    role: 'system',
    content: [
      {
        type: 'text',
        text: `The user ran /init: AGENTS.md at the root of the working directory now reads:\n\n${text}`,
      },
    ],
  });
  return { kind: 'written', text: written };
}
