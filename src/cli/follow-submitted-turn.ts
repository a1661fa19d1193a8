import type { Redis } from 'ioredis';
import { followTurn } from '../fleet/follow-turn.js';
import type { TurnJob } from '../fleet/turn-job.js';
import { PrintFormatter } from '../ui/print/print-formatter.js';
import { GOAL_EXIT_CODES } from '../ui/print/run-print.js';
import { assertNever } from '../util/assert-never.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';

/**
 * `submit --wait`: the turn's events from the session's Redis Stream through print mode's formatter;
 * the exit code is the one the worker's turn ended with (the goal codes when a goal ran).
 */
export async function followSubmittedTurn(options: {
  redis: Redis;
  blocking: Redis;
  job: TurnJob;
  outputFormat: 'text' | 'stream-json';
}): Promise<number> {
  const { job, outputFormat } = options;
  const text = outputFormat === 'text';
  const stderr = (line: string) => process.stderr.write(line);
  const formatter = new PrintFormatter(
    outputFormat,
    {
      out: (chunk) => process.stdout.write(text ? sanitizeForTerminal(chunk) : chunk),
      progress: text ? (chunk) => stderr(sanitizeForTerminal(chunk)) : () => {},
    },
    { finalMessageOnly: false, workDir: job.workDir },
  );
  const done = new AbortController();
  /** What the turn was last parked for, until it goes on. */
  let parked: ParkedKind | null = null;
  try {
    for await (const event of followTurn(
      options.redis,
      options.blocking,
      job.sessionId,
      job.turn,
      done.signal,
    )) {
      switch (event.kind) {
        case 'wire':
          formatter.handle(event.message);
          break;
        case 'parked':
          parked = event.waits ?? 'approval';
          stderr(parkedText(event.waits, sanitizeForTerminal(event.description), job.sessionId));
          break;
        case 'attempt':
          if (parked !== null) {
            const resumed = resumedText(parked);
            parked = null;
            stderr(`${resumed}; the turn goes on, on ${sanitizeForTerminal(event.worker)}.\n`);
          } else if (event.attempt > 1)
            stderr(
              `\nThe turn was taken over by ${sanitizeForTerminal(event.worker)} (attempt ${event.attempt}): it goes on from its last committed step.\n`,
            );
          break;
        case 'unreadable':
          stderr(`Skipping an unreadable event of the session: ${sanitizeForTerminal(event.problem)}\n`);
          break;
        case 'end':
          formatter.finish();
          if (event.error) stderr(`${sanitizeForTerminal(event.error)}\n`);
          return event.goalEnd ? GOAL_EXIT_CODES[event.goalEnd] : event.code;
      }
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'TurnJobFailed') {
      formatter.finish();
      stderr(`${sanitizeForTerminal(error.message)}\n`);
      return 1;
    }
    throw error;
  } finally {
    done.abort();
  }
  return 1;
}

type ParkedKind = 'approval' | 'question' | 'task' | 'children';

/** What `submit --wait` says of a parked turn (`description` already safe for a terminal). */
function parkedText(waits: ParkedKind | undefined, description: string, sessionId: string): string {
  switch (waits) {
    case 'question':
      return `\nWaiting for an answer: ${description}\nSee the options and answer with: kimi-ts fleet answer ${sessionId} --queue URL\n`;
    case 'task':
      return `\nWaiting for ${description} (the turn holds no worker meanwhile).\n`;
    case 'children':
      return `\nWaiting for the swarm: ${description}\n`;
    case 'approval':
    case undefined:
      return `\nWaiting for an approval: ${description}\nAnswer it with: kimi-ts fleet approve ${sessionId} --queue URL --approve (or --reject)\n`;
    default:
      return assertNever(waits);
  }
}

/** What `submit --wait` says when a parked turn is taken again (before "; the turn goes on"). */
function resumedText(parked: ParkedKind): string {
  switch (parked) {
    case 'task':
      return 'The wait is over';
    case 'children':
      return "The swarm's items have ended";
    case 'approval':
    case 'question':
      return 'Answered';
    default:
      return assertNever(parked);
  }
}
