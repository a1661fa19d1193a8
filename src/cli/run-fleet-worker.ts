import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type { BackgroundTaskKeeper } from '../app/extensions/background-task-keeper.js';
import { WorkRootRefusal } from '../app/session-files.js';
import { WorkRoots } from '../app/work-roots.js';
import { kimiTsHome } from '../config/home.js';
import type { SwarmItemSession } from '../fleet/job-session.js';
import type { FleetSession } from '../fleet/run-turn-job.js';
import type { TurnJob } from '../fleet/turn-job.js';
import { sessionAt } from '../session/session.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';
import { printWarning } from './print-warning.js';
import type { SessionFlags } from './session-options.js';
import { USAGE_EXIT_CODE, usageErrorText } from './usage-text.js';

export interface FleetWorkerFlags extends SessionFlags {
  queue: string;
  concurrency?: number | undefined;
  label?: string | undefined;
  leaseMs?: number | undefined;
  /** `--work-root` (repeatable): the folders this worker's sessions may work in; none: anywhere. */
  workRoot?: string[] | undefined;
}

/**
 * One line of the worker's log, its control characters shown, never interpreted: job ids, work dirs
 * and error texts in it come from whoever wrote the job (a planted job's id with ESC ] 0 ; … BEL
 * retitled the operator's terminal, ESC [ 2 J cleared it).
 */
const log = (line: string) => process.stderr.write(`kimi-ts worker: ${sanitizeForTerminal(line)}\n`);

/**
 * `kimi-ts worker --queue URL`: runs turns of the fleet's sessions with this worker's own config
 * (the jobs carry no key) until SIGTERM/SIGINT (drain: running turns finish, nothing new is taken,
 * exit 0) or until Redis is gone (one line, exit 1).
 */
export async function runFleetWorker(flags: FleetWorkerFlags): Promise<number> {
  const [{ parseQueueUrl, QueueUrlError }, { RedisUnreachable }, { startFleetWorker }] = await Promise.all([
    import('../fleet/queue-address.js'),
    import('../fleet/redis-connection.js'),
    import('../fleet/fleet-worker.js'),
  ]);
  let address: ReturnType<typeof parseQueueUrl>;
  try {
    address = parseQueueUrl(flags.queue);
  } catch (error) {
    if (!(error instanceof QueueUrlError)) throw error;
    process.stderr.write(usageErrorText(error.message));
    return USAGE_EXIT_CODE;
  }
  const home = kimiTsHome(process.env);
  let roots: WorkRoots;
  try {
    roots = flags.workRoot?.length
      ? WorkRoots.of(flags.workRoot, process.cwd(), home)
      : WorkRoots.anywhereBut(process.env.HOME || homedir(), home);
  } catch (error) {
    process.stderr.write(usageErrorText(error instanceof Error ? error.message : String(error)));
    return USAGE_EXIT_CODE;
  }
  const { checkoutSessionWorktree, pushItemBranch, pushSessionWork, sessionWorktreePath } = await import(
    '../fleet/session-worktree.js'
  );
  // A job with a git remote runs in this worker's own worktree of it; else in its work dir path.
  const { BackgroundTaskKeeper } = await import('../app/extensions/background-task-keeper.js');
  // Turns parked for a WaitFor keep their background tasks running in this process.
  const keeper = new BackgroundTaskKeeper();
  const workDirOf = (job: TurnJob) => (job.repo ? sessionWorktreePath(home, job.sessionId) : job.workDir);
  // A `--repo` session works in this worker's own worktree of it, wherever the roots are.
  const rootsOf = (job: TurnJob) => (job.repo ? roots.with(workDirOf(job)) : roots);
  const open = async (job: TurnJob) => {
    refuseOutsideRoots(job, rootsOf(job));
    if (job.repo) await checkoutSessionWorktree(home, job.sessionId, job.repo);
    return openJobSession(flags, home, { ...job, workDir: workDirOf(job) }, keeper, { roots: rootsOf(job) });
  };
  let worker: Awaited<ReturnType<typeof startFleetWorker>>;
  try {
    worker = await startFleetWorker({
      address,
      concurrency: flags.concurrency ?? 1,
      label: flags.label,
      leaseMs: flags.leaseMs ?? 30_000,
      redisGraceMs: 5000,
      open,
      files: (job) => {
        const session = sessionAt(home, workDirOf(job), job.sessionId);
        return { context: session.contextFile, wire: session.wireFile, state: session.stateFile };
      },
      settle: async (job, check) => {
        if (!job.repo) return;
        const commit = await pushSessionWork(home, job.sessionId, job.turn, job.repo, check);
        log(
          `pushed turn ${job.turn} of ${job.sessionId} to its branch kimi-ts/${job.sessionId} (${commit.slice(0, 12)})`,
        );
      },
      // One item of a turn's swarm: the session opened without touching its siblings' worktrees,
      // nor the keeper (the turn's kept tasks are not the item's to take or keep).
      openItem: (job) =>
        openJobSession(flags, home, { ...job, workDir: workDirOf(job) }, undefined, {
          swarmItem: true,
          roots: rootsOf(job),
        }),
      prepareItem: async (job) => {
        refuseOutsideRoots(job, rootsOf(job));
        if (job.repo) await checkoutSessionWorktree(home, job.sessionId, job.repo);
      },
      pushItemBranch: async (job, branch) => {
        if (!job.repo) return;
        await pushItemBranch(home, job.repo, branch);
        log(`pushed ${branch} of ${job.sessionId} to its remote`);
      },
      log,
      keeper,
    });
  } catch (error) {
    if (!(error instanceof RedisUnreachable)) throw error;
    log(error.message);
    return 1;
  }
  const stop = new Promise<'stop'>((resolve) => {
    process.once('SIGTERM', () => resolve('stop'));
    process.once('SIGINT', () => resolve('stop'));
  });
  const ending = await Promise.race([stop, worker.gone]);
  if (ending === 'stop') {
    log('draining: running turns finish, no new ones are taken');
    await worker.drain();
    log('stopped');
    return 0;
  }
  log(`${ending.message} Stopping; committed steps stay, running turns are taken over by other workers.`);
  worker.abort();
  return 1;
}

/** The job's session, built like print mode's (nobody to ask: runtime afk) under the worker's config. */
async function openJobSession(
  flags: FleetWorkerFlags,
  home: string,
  job: TurnJob,
  keeper: BackgroundTaskKeeper | undefined,
  { swarmItem = false, roots }: { swarmItem?: boolean; roots?: WorkRoots | undefined } = {},
): Promise<FleetSession & SwarmItemSession> {
  if (!isAbsolute(job.workDir) || !isDirectory(job.workDir))
    throw new Error(`The work dir ${job.workDir} is not a directory on this worker.`);
  refuseOutsideRoots(job, roots);
  const [{ createAgentSession }, { defaultExtensions }, { agentSessionOptions }] = await Promise.all([
    import('../app/create-agent-session.js'),
    import('../app/default-extensions.js'),
    import('./session-options.js'),
  ]);
  const sessionFlags: SessionFlags = {
    config: flags.config,
    configFile: flags.configFile,
    model: job.model ?? flags.model,
    yolo: job.yolo,
    afk: job.afk,
    maxStepsPerTurn: flags.maxStepsPerTurn,
    maxRetriesPerStep: flags.maxRetriesPerStep,
  };
  const options = agentSessionOptions(sessionFlags, {
    home,
    env: process.env,
    workDir: job.workDir,
    sessionId: job.sessionId,
    // Nobody to ask, as in print mode; unless the job parks its approvals for `fleet approve`.
    runtimeAfk: !job.ask,
    onWarning: printWarning,
    cwd: job.workDir,
  });
  return createAgentSession({
    ...options.session,
    // The work dir again, and the folders the session's saved state adds (the store wrote them).
    workRoots: roots,
    leased: true,
    goalGoesOn: job.goalStep === true,
    extensions: defaultExtensions({ ...options.extensions, swarmItem, backgroundTaskKeeper: keeper }),
  });
}

/**
 * A job whose work dir lies outside the worker's `--work-root` is refused before anything of it is
 * checked out or opened (a `--repo` job's own worktree is inside the roots it is given).
 */
function refuseOutsideRoots(job: TurnJob, roots: WorkRoots | undefined): void {
  const refusal = job.repo ? null : roots?.refusal(job.workDir, 'The work dir');
  if (refusal) throw new WorkRootRefusal(refusal);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
