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
  let parked: 'approval' | 'question' | 'children' | null = null;
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
          stderr(parkedLine(event.waits ?? 'approval', event.description, job.sessionId));
          break;
        case 'attempt':
          if (parked !== null) {
            stderr(
              parked === 'children'
                ? `The swarm's items have ended; the turn goes on, on ${sanitizeForTerminal(event.worker)}.\n`
                : `Answered; the turn goes on, on ${sanitizeForTerminal(event.worker)}.\n`,
            );
            parked = null;
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

/** What `--wait` says when the turn is parked. */
function parkedLine(
  waits: 'approval' | 'question' | 'children',
  description: string,
  sessionId: string,
): string {
  const what = sanitizeForTerminal(description);
  switch (waits) {
    case 'question':
      return `\nWaiting for an answer: ${what}\nSee the options and answer with: kimi-ts fleet answer ${sessionId} --queue URL\n`;
    case 'approval':
      return `\nWaiting for an approval: ${what}\nAnswer it with: kimi-ts fleet approve ${sessionId} --queue URL --approve (or --reject)\n`;
    case 'children':
      return `\nWaiting for the swarm: ${what}\n`;
    default:
      return assertNever(waits);
  }
}
