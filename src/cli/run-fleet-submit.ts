import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isSafeRev, remoteUrlProblem } from '../fleet/repo-source.js';
import { WORKER_LABEL } from '../fleet/turn-job.js';
import { USAGE_EXIT_CODE, usageErrorText } from './usage-text.js';

export interface FleetSubmitFlags {
  queue: string;
  workDir?: string | undefined;
  prompt?: string | undefined;
  session?: string | boolean | undefined;
  turn?: number | undefined;
  model?: string | undefined;
  yolo?: boolean | undefined;
  afk?: boolean | undefined;
  wait?: boolean | undefined;
  ask?: boolean | undefined;
  outputFormat?: string | undefined;
  repo?: string | undefined;
  rev?: string | undefined;
  label?: string | undefined;
}

/** Exit code when Redis cannot be reached: worth retrying later, as print mode's 75. */
const REDIS_GONE_EXIT_CODE = 75;

class SubmitUsage extends Error {}

/**
 * `kimi-ts submit --queue URL -p PROMPT`: queues turn 1 (or `--turn N`) of a new session (or of
 * `--session UUID`), prints the session id; with `--wait` follows the turn's events from Redis and
 * exits as print mode would.
 */
export async function runFleetSubmit(flags: FleetSubmitFlags): Promise<number> {
  const [{ parseQueueUrl, QueueUrlError }, { connectRedis, RedisUnreachable, reasonOf }, { submitTurn }] =
    await Promise.all([
      import('../fleet/queue-address.js'),
      import('../fleet/redis-connection.js'),
      import('../fleet/submit-turn.js'),
    ]);
  let job: Parameters<typeof submitTurn>[1];
  let address: ReturnType<typeof parseQueueUrl>;
  try {
    address = parseQueueUrl(flags.queue);
    job = jobOf(flags);
  } catch (error) {
    if (!(error instanceof QueueUrlError || error instanceof SubmitUsage)) throw error;
    process.stderr.write(usageErrorText(error.message));
    return USAGE_EXIT_CODE;
  }
  const outputFormat = flags.outputFormat === 'stream-json' ? 'stream-json' : 'text';
  let redis: Awaited<ReturnType<typeof connectRedis>> | null = null;
  let blocking: Awaited<ReturnType<typeof connectRedis>> | null = null;
  try {
    redis = await connectRedis(address, { graceMs: 5000 });
    const { existed } = await submitTurn(redis, job);
    process.stdout.write(
      outputFormat === 'text' ? `${job.sessionId}\n` : `${JSON.stringify({ session_id: job.sessionId })}\n`,
    );
    if (existed)
      process.stderr.write(
        `Turn ${job.turn} of session ${job.sessionId} was already submitted: not queued again.\n`,
      );
    if (!flags.wait) return 0;
    blocking = await connectRedis(address, { graceMs: 5000 });
    const { followSubmittedTurn } = await import('./follow-submitted-turn.js');
    return await followSubmittedTurn({ redis, blocking, job, outputFormat });
  } catch (error) {
    if (error instanceof RedisUnreachable) {
      process.stderr.write(`kimi-ts submit: ${error.message}\n`);
      return REDIS_GONE_EXIT_CODE;
    }
    if (redis !== null && redis.status !== 'ready') {
      process.stderr.write(`kimi-ts submit: Redis at ${address.display} went away: ${reasonOf(error)}.\n`);
      return REDIS_GONE_EXIT_CODE;
    }
    throw error;
  } finally {
    blocking?.disconnect();
    redis?.disconnect();
  }
}

function jobOf(flags: FleetSubmitFlags) {
  const prompt = flags.prompt;
  if (prompt === undefined || !prompt.trim()) throw new SubmitUsage('submit needs a prompt: -p PROMPT.');
  const repo = repoOf(flags);
  // With a remote, the work dir is the workers' own worktree of it: what lists show is the remote.
  const workDir = repo ? repo.url : resolve(flags.workDir ?? process.cwd());
  if (!repo && !(existsSync(workDir) && statSync(workDir).isDirectory()))
    throw new SubmitUsage(`--work-dir ${workDir} is not an existing directory.`);
  const given = typeof flags.session === 'string' ? flags.session : undefined;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (given !== undefined && !uuid.test(given))
    throw new SubmitUsage('--session for submit takes a full session UUID.');
  return {
    sessionId: given ?? randomUUID(),
    turn: flags.turn ?? 1,
    workDir,
    prompt,
    yolo: Boolean(flags.yolo),
    afk: Boolean(flags.afk),
    ...(flags.model ? { model: flags.model } : {}),
    ...(flags.ask ? { ask: true } : {}),
    ...(repo ? { repo } : {}),
    ...(labelOf(flags) ? { label: labelOf(flags) } : {}),
  };
}

function labelOf(flags: FleetSubmitFlags): string | undefined {
  if (flags.label !== undefined && !WORKER_LABEL.test(flags.label))
    throw new SubmitUsage('--label takes 1 to 64 letters, digits and ._- (starting with a letter or digit).');
  return flags.label;
}

/** `--repo URL --rev REV`, checked before anything is queued; the URL and the rev are never quoted back. */
function repoOf(flags: FleetSubmitFlags): { url: string; rev: string } | null {
  if (flags.repo === undefined) {
    if (flags.rev !== undefined) throw new SubmitUsage('--rev goes with --repo.');
    return null;
  }
  const problem = remoteUrlProblem(flags.repo);
  if (problem !== null) throw new SubmitUsage(`--repo: ${problem}`);
  const rev = flags.rev ?? 'main';
  if (!isSafeRev(rev))
    throw new SubmitUsage('--rev must be a hex object id or a safe ref name (letters, digits, ._/-).');
  return { url: flags.repo, rev };
}
