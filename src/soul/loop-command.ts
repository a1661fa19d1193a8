import type { CronBook } from '../tools/cron/cron-book.js';
import { CronExpressionError } from '../tools/cron/cron-expression.js';
import { formatLocalIso, promptPreview } from '../tools/cron/cron-format.js';
import { type CronJob, CronJobError } from '../tools/cron/cron-job.js';
import { revealInvisible } from '../util/reveal-invisible.js';
import type { SlashCommand } from './slash-commands.js';
import { say } from './slash-commands.js';

const USAGE = 'Usage: /loop <interval> <prompt> (e.g. /loop 5m check CI) · /loop (list) · /loop stop <id>';

/** An interval as a cron expression, with the words for it; a string is the problem. */
export interface LoopSchedule {
  cron: string;
  every: string;
  /** Set when the interval was rounded to one cron can keep evenly. */
  rounded: string | null;
}

const DIVISORS_OF_60 = [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30];
const DIVISORS_OF_24 = [1, 2, 3, 4, 6, 8, 12];

function nearest(values: readonly number[], n: number): number {
  return values.reduce((best, value) => (Math.abs(value - n) < Math.abs(best - n) ? value : best));
}

/**
 * `5m`, `2h`, `1d` as a 5-field cron expression in local time. Cron keeps only intervals that divide
 * the hour or the day evenly, so others are rounded to the nearest such one (and the answer says so).
 * Hourly and daily loops start at the current minute (and hour), not at :00 with everyone else.
 */
export function parseLoopInterval(text: string, now: Date = new Date()): LoopSchedule | string {
  const match = /^(\d+)\s*(s|m|h|d)$/i.exec(text.trim());
  if (!match) return `"${text}" is not an interval: use a whole number with m, h or d (5m, 2h, 1d).`;
  const n = Number(match[1]);
  const unit = (match[2] as string).toLowerCase();
  if (n <= 0) return 'The interval must be longer than zero.';
  if (unit === 's') return 'The shortest interval is 1m (schedules fire on whole minutes).';
  let minutes = unit === 'm' ? n : unit === 'h' ? n * 60 : n * 1440;
  if (minutes < 60) {
    const step = nearest(DIVISORS_OF_60, minutes);
    const rounded = step !== minutes ? `${minutes}m → ${step}m` : null;
    return { cron: step === 1 ? '* * * * *' : `*/${step} * * * *`, every: `${step}m`, rounded };
  }
  if (minutes < 1440) {
    const hours = nearest(DIVISORS_OF_24, Math.round(minutes / 60));
    const rounded = hours * 60 !== minutes ? `${text.trim()} → ${hours}h` : null;
    minutes = hours * 60;
    return {
      cron: `${now.getMinutes()} ${hours === 1 ? '*' : `*/${hours}`} * * *`,
      every: `${hours}h`,
      rounded,
    };
  }
  const rounded = minutes !== 1440 ? `${text.trim()} → 1d` : null;
  return { cron: `${now.getMinutes()} ${now.getHours()} * * *`, every: '1d', rounded };
}

/** One job as `/loop` lists it; the prompt is made terminal-safe (controls, invisible characters). */
function jobLine(book: CronBook, job: CronJob): string {
  const next = book.nextFireAt(job);
  const schedule = job.cron === null ? 'once' : job.recurring ? job.cron : `${job.cron} (once)`;
  const prompt = revealInvisible(promptPreview(job.prompt).replace(/\r?\n/g, ' ⏎ '));
  return `${job.id}  ${schedule}  next ${next === null ? '—' : formatLocalIso(next)}  by ${job.created_by}  ${prompt}`;
}

/** `/loop`: the person's shortcut to schedule a recurring prompt, list the schedules, or stop one. */
export function loopCommand(book: CronBook): SlashCommand {
  return {
    name: 'loop',
    description: 'Run a prompt on an interval: /loop 5m <prompt>, /loop (list), /loop stop <id>',
    aliases: [],
    async run({ soul, args }) {
      const arg = args.trim();
      if (arg === '' || arg === 'list') {
        const jobs = book.list();
        say(
          soul,
          jobs.length === 0
            ? `No scheduled prompts. ${USAGE}`
            : [`Scheduled prompts (${jobs.length}):`, ...jobs.map((job) => jobLine(book, job))].join('\n'),
        );
        return;
      }
      const stop = /^(?:stop|delete|rm)(?:\s+(\S+))?$/i.exec(arg);
      if (stop) {
        const id = stop[1];
        if (!id) say(soul, `Which one? ${USAGE}`);
        else if (book.remove(id)) say(soul, `Stopped ${id}.`);
        else
          say(
            soul,
            `No scheduled prompt has the id ${revealInvisible(JSON.stringify(id))}. /loop lists them.`,
          );
        return;
      }
      const [intervalText = '', ...rest] = arg.split(/\s+/);
      const prompt = arg.slice(intervalText.length).trim();
      if (!prompt || rest.length === 0) {
        say(soul, `A prompt is needed after the interval.\n${USAGE}`);
        return;
      }
      const schedule = parseLoopInterval(intervalText);
      if (typeof schedule === 'string') {
        say(soul, `${schedule}\n${USAGE}`);
        return;
      }
      try {
        const job = book.add({
          kind: 'cron',
          cron: schedule.cron,
          recurring: true,
          prompt,
          createdBy: 'user',
        });
        const next = book.nextFireAt(job);
        say(
          soul,
          [
            `Scheduled ${job.id}: every ${schedule.every} (cron "${schedule.cron}")${schedule.rounded ? `, rounded ${schedule.rounded}` : ''}; next at ${next === null ? '—' : formatLocalIso(next)}.`,
            'It runs while this session is open and idle, for 7 days at most. /loop stop ' +
              `${job.id} stops it.`,
          ].join('\n'),
        );
      } catch (error) {
        if (error instanceof CronJobError || error instanceof CronExpressionError) {
          say(soul, error.message);
          return;
        }
        throw error;
      }
    },
  };
}
