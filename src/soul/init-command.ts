import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
export async function runInit(soul: Soul, workDir: string, signal: AbortSignal): Promise<string | null> {
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
  let written: string;
  try {
    written = await readFile(join(workDir, 'AGENTS.md'), 'utf8');
  } catch {
    return null;
  }
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
  return written;
}
