import { createHash } from 'node:crypto';
import type { CheckpointInfo } from '../../session/checkpoints/checkpoint-info.js';
import { CheckpointStore, checkpointStoreDir } from '../../session/checkpoints/checkpoint-store.js';
import { cleanRestoreLeftovers } from '../../session/checkpoints/restore-journal.js';
import type { WorkTreeCheckpoints } from '../../soul/work-tree-checkpoints.js';
import {
  appendCheckpointLog,
  type CheckpointLogRecord,
  logEndsTorn,
  readCheckpointLog,
} from './checkpoint-log.js';

export interface SessionCheckpointsOptions {
  /** kimi-ts's data folder: the store lives in `<home>/checkpoints/`. */
  home: string;
  sessionId: string;
  sessionDir: string;
  workDir: string;
  /** The session's add-dirs, as they are now (`/add-dir` adds to this array). */
  additionalDirs: readonly string[];
  maxFileBytes?: number | undefined;
  /** Secrets out of the prompts written to the log. */
  redact: (text: string) => string;
  /** Told once when recording fails (git missing, disk full); rewinds then have fewer points. */
  warn: (message: string) => void;
  /**
   * Records start once this opens (the first model request has gone out: their git would slow the
   * start down); whatever must wait for a record opens it first. Default: records start at once.
   */
  deferredUntil?: { opened: Promise<void>; open(): void } | undefined;
}

/**
 * Where the session's turns are, as the checkpoints see them. In a turn: the checkpoint it began
 * with (once recorded), and its side effects: none yet, all of them recorded by a step's record, or
 * some since the last record (the next step records again).
 */
type TurnTracking =
  | { kind: 'between-turns' }
  | {
      kind: 'in-turn';
      turnId: number;
      start: string | null;
      sideEffects: 'none' | 'recorded' | 'unrecorded';
    };

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * The session's file checkpoints: records the work dir and the add-dirs in the private store at the
 * soul's turn and step boundaries and notes each in `checkpoints.jsonl`. Records run one after
 * another on a chain, in the background; the soul's side-effecting tools wait for the chain
 * (`untilRecorded`), nothing else does — a turn that changes nothing never waits for git.
 */
export class SessionCheckpoints implements WorkTreeCheckpoints {
  private chain: Promise<void> = Promise.resolve();
  private store: CheckpointStore | null = null;
  private turn: TurnTracking = { kind: 'between-turns' };
  private warned = false;
  /** Aborted when the session must close now: the record under way stops (its git is killed). */
  private readonly stop = new AbortController();
  private tornLog: boolean;

  private constructor(
    private readonly options: SessionCheckpointsOptions,
    private nextTurnId: number,
    tornLog: boolean,
  ) {
    this.tornLog = tornLog;
    if (options.deferredUntil) this.chain = options.deferredUntil.opened;
  }

  static async open(options: SessionCheckpointsOptions): Promise<SessionCheckpoints> {
    const records = await readCheckpointLog(options.sessionDir);
    const lastTurn = records.reduce((max, r) => (r.type === 'turn' ? Math.max(max, r.turn_id) : max), 0);
    const checkpoints = new SessionCheckpoints(options, lastTurn + 1, await logEndsTorn(options.sessionDir));
    // A rewind that crashed (this session's or a closed one's) may have left temporary files in the
    // work tree: they go before the first record could take them for the user's.
    checkpoints.enqueue(() => checkpoints.cleanLeftovers());
    return checkpoints;
  }

  /** Removes the temporary files of crashed restores (restore-journal.ts); done before each rewind too. */
  async cleanLeftovers(): Promise<void> {
    const gitDir = checkpointStoreDir(this.options.home, this.options.workDir);
    await cleanRestoreLeftovers(gitDir, this.options.home, this.options.sessionId);
  }

  get roots(): string[] {
    return [this.options.workDir, ...this.options.additionalDirs];
  }

  beginTurn(turn: { prompt: string; contextText: string; contextCheckpoint: number }): void {
    const turnId = this.nextTurnId++;
    const tracking: TurnTracking = { kind: 'in-turn', turnId, start: null, sideEffects: 'none' };
    this.turn = tracking;
    this.enqueue(async () => {
      const { checkpoint } = await this.record(`before turn ${turnId}`);
      tracking.start = checkpoint.id;
      await this.append({
        type: 'turn',
        turn_id: turnId,
        prompt: this.options.redact(turn.prompt),
        context_checkpoint: turn.contextCheckpoint,
        context_text_sha256: sha256(turn.contextText),
        checkpoint: checkpoint.id,
        at: Date.now(),
      });
    });
  }

  beginStep(n: number): void {
    if (this.turn.kind !== 'in-turn' || this.turn.sideEffects !== 'unrecorded') return;
    const { turnId } = this.turn;
    this.turn.sideEffects = 'recorded';
    this.enqueue(async () => {
      const { checkpoint, created } = await this.record(`turn ${turnId} step ${n}`);
      if (created)
        await this.append({
          type: 'step',
          turn_id: turnId,
          step: n,
          checkpoint: checkpoint.id,
          at: Date.now(),
        });
    });
  }

  async endTurn(): Promise<void> {
    const tracking = this.turn;
    if (tracking.kind !== 'in-turn') return;
    this.turn = { kind: 'between-turns' };
    const { turnId } = tracking;
    const touched = tracking.sideEffects !== 'none';
    this.enqueue(async () => {
      // A turn that ran no side-effecting tool left the files as it found them: no record needed,
      // and whatever changed meanwhile was someone else's doing.
      const end = touched ? (await this.record(`after turn ${turnId}`)).checkpoint.id : tracking.start;
      if (end) await this.append({ type: 'turn_end', turn_id: turnId, checkpoint: end, at: Date.now() });
    });
    // After side effects, the state the turn leaves is recorded before the turn ends: a change made
    // by someone else right after must not count as the session's.
    if (touched) await this.startedChain();
  }

  untilRecorded(signal: AbortSignal): Promise<void> {
    // Between turns there is nothing to record for: the next turn begins with a record of its own.
    if (this.turn.kind === 'in-turn') this.turn.sideEffects = 'unrecorded';
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.startedChain().then(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /** Waits for the records under way (session end, before a rewind). */
  flush(): Promise<void> {
    return this.startedChain();
  }

  /** The store and a checkpoint of the files as they are now, after the pending records. */
  async recordNow(
    label: string,
    options: { cleanLeftovers?: boolean } = {},
  ): Promise<{ store: CheckpointStore; checkpoint: CheckpointInfo }> {
    let result: { store: CheckpointStore; checkpoint: CheckpointInfo } | undefined;
    let failure: unknown;
    this.chain = this.chain.then(async () => {
      try {
        if (options.cleanLeftovers) await this.cleanLeftovers();
        const { checkpoint } = await this.record(label);
        result = { store: await this.openStore(), checkpoint };
      } catch (error) {
        failure = error;
      }
    });
    await this.startedChain();
    if (!result) throw failure;
    return result;
  }

  /** The store, once the pending records are done (for listing what turns changed). */
  async currentStore(): Promise<CheckpointStore> {
    await this.startedChain();
    return this.openStore();
  }

  /** Appends a rewind or redo record (after the pending ones). */
  async note(record: CheckpointLogRecord): Promise<void> {
    this.chain = this.chain.then(() => this.append(record));
    await this.startedChain();
  }

  /**
   * Gives up the record under way and those queued (the process is ending: SIGTERM, SIGHUP). git gets
   * SIGTERM and removes its own lock files; a commit not made is simply no checkpoint, and the next
   * start of the session records again.
   */
  abandon(): void {
    this.stop.abort(new Error('the session is closing'));
  }

  /** The chain, its deferred start (if any) given up: the caller waits for what is on it. */
  private startedChain(): Promise<void> {
    this.options.deferredUntil?.open();
    return this.chain;
  }

  private enqueue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch((error: unknown) => {
      if (this.warned || this.stop.signal.aborted) return;
      this.warned = true;
      const reason = error instanceof Error ? error.message : String(error);
      this.options.warn(`File checkpoints for /rewind could not be recorded: ${reason}`);
    });
  }

  private async record(label: string): Promise<{ checkpoint: CheckpointInfo; created: boolean }> {
    this.stop.signal.throwIfAborted();
    const store = await this.openStore();
    return store.record(label, this.stop.signal);
  }

  /** The store for the current roots; opened again when `/add-dir` changed them. */
  private async openStore(): Promise<CheckpointStore> {
    const roots = this.roots;
    if (!this.store || this.store.roots.join('\0') !== roots.join('\0')) {
      this.store = await CheckpointStore.open({
        home: this.options.home,
        sessionId: this.options.sessionId,
        roots,
        maxFileBytes: this.options.maxFileBytes,
      });
    }
    return this.store;
  }

  private async append(record: CheckpointLogRecord): Promise<void> {
    await appendCheckpointLog(this.options.sessionDir, record, this.tornLog);
    this.tornLog = false;
  }
}
