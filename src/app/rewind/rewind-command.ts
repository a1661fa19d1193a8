import { basename, join } from 'node:path';
import { extractText } from '../../kosong/message.js';
import type { SessionPolicy } from '../../policy/index.js';
import type { RestoreReport } from '../../session/checkpoints/apply-restore.js';
import type { Context } from '../../soul/context/context.js';
import { type SlashCommand, say } from '../../soul/slash-commands.js';
import type { Soul } from '../../soul/soul.js';
import type { Approval } from '../../toolset/approval/approval.js';
import { sanitizeOneLine } from '../../util/sanitize-terminal.js';
import { type RewindDone, wireEvent } from '../../wire/events.js';
import { askRewindApproval } from './ask-rewind-approval.js';
import { readCheckpointLog } from './checkpoint-log.js';
import {
  applyFilesPlan,
  describePlan,
  displayPath,
  type FilesPlan,
  filesCount,
  listedPath,
  planFilesRestore,
} from './restore-files.js';
import { judgeRestore, REWIND_FILES_ACTION } from './restore-policy.js';
import { parseRewindArgs, REWIND_USAGE } from './rewind-args.js';
import { type SessionCheckpoints, sha256 } from './session-checkpoints.js';
import { replayTurnHistory, type TurnEntry, type TurnHistory } from './turn-history.js';
import { describeTurns } from './turn-list.js';

export interface RewindCommandParts {
  checkpoints: SessionCheckpoints;
  sessionDir: string;
  approval: Approval;
  /** Decides on the restore's writes like on any tool's (deny rules, secrets, plan mode, yolo). */
  policy: SessionPolicy;
}

/** A run of the command: its parts and the soul whose turn runs it (it answers on that run's wire). */
type RewindRun = RewindCommandParts & { soul: Soul };

/** The outcome of the files' part of a rewind or redo. */
interface FilesOutcome {
  report: RestoreReport | null;
  plan: FilesPlan | null;
  after: string | null;
}

/** `/rewind`: the files and the conversation back to before a turn, and `--redo` back again. */
export function rewindCommand(parts: RewindCommandParts): SlashCommand {
  return {
    name: 'rewind',
    description:
      'Go back to before turn n, files and conversation: /rewind [n] [--code | --conversation] [--force], /rewind --redo, /rewind list',
    aliases: [],
    async run(call) {
      try {
        await runRewind({ ...parts, soul: call.soul }, call.soul.context, call.args, call.signal);
      } catch (error) {
        if (call.signal.aborted) throw error;
        say(
          call.soul,
          `The rewind stopped: ${error instanceof Error ? error.message : String(error)}. Run it again to finish.`,
        );
      }
    },
  };
}

async function runRewind(
  parts: RewindRun,
  context: Context,
  args: string,
  signal: AbortSignal,
): Promise<void> {
  const parsed = parseRewindArgs(args);
  const history = replayTurnHistory(await readCheckpointLog(parts.sessionDir));
  switch (parsed.kind) {
    case 'usage':
      say(parts.soul, `${parsed.problem}\n${REWIND_USAGE}`);
      return;
    case 'list':
      say(parts.soul, await describeTurns(parts.checkpoints, history));
      return;
    case 'redo':
      await redo(parts, context, history, parsed.force, signal);
      return;
    case 'rewind': {
      if (history.turns.length === 0) {
        say(parts.soul, 'There is no turn to rewind yet.');
        return;
      }
      let n = parsed.turn;
      if (n === null) {
        n = history.turns.length;
        say(
          parts.soul,
          `${await describeTurns(parts.checkpoints, history)}\nRewinding to before the last turn, ${n}.\n`,
        );
      }
      const target = history.turns[n - 1];
      if (!target) {
        say(parts.soul, `There is no turn ${n}: this session has ${history.turns.length}.`);
        return;
      }
      await rewind(parts, context, history, { ...parsed, n, target }, signal);
      return;
    }
  }
}

async function rewind(
  parts: RewindRun,
  context: Context,
  history: TurnHistory,
  request: { n: number; target: TurnEntry; code: boolean; conversation: boolean; force: boolean },
  signal: AbortSignal,
): Promise<void> {
  const { n, target } = request;
  const conversationOk = request.conversation && holdsTurn(context, target);
  if (request.conversation && !conversationOk) {
    say(
      parts.soul,
      `The conversation cannot go back to before turn ${n}: the context was compacted or cleared since. ` +
        (request.code ? 'Only the files are rewound.' : 'Nothing was changed.'),
    );
    if (!request.code) return;
  }
  const later = new Set(history.turns.slice(n).map((t) => t.turnId));
  const spans: [string, string][] = history.gaps
    .filter((gap) => later.has(gap.beforeTurnId))
    .map((gap) => [gap.from, gap.to]);
  const files = request.code
    ? await restoreFiles(parts, target.checkpoint, spans, history.lastEnd, request.force, signal, {
        what: `Rewind to before turn ${n} (“${oneLine(target.prompt)}”)`,
        alsoConversation: conversationOk,
      })
    : null;
  if (files === 'rejected') return;
  let branch: string | null = null;
  if (conversationOk) branch = await context.revertTo(target.contextCheckpoint);
  await parts.checkpoints.note({
    type: 'rewind',
    to_turn_id: target.turnId,
    code: files !== null,
    conversation: conversationOk,
    before_checkpoint: files?.plan?.now.id ?? null,
    context_branch: branch === null ? null : basename(branch),
    after_checkpoint: files?.after ?? null,
    at: Date.now(),
  });
  finish(parts, n, false, files, conversationOk);
}

async function redo(
  parts: RewindRun,
  context: Context,
  history: TurnHistory,
  force: boolean,
  signal: AbortSignal,
): Promise<void> {
  const branch = history.redoable;
  if (!branch) {
    say(
      parts.soul,
      'There is no rewind to redo (a turn taken after a rewind ends what --redo can return to).',
    );
    return;
  }
  const { rewind } = branch;
  const files =
    rewind.code && rewind.before_checkpoint
      ? await restoreFiles(parts, rewind.before_checkpoint, [], rewind.after_checkpoint, force, signal, {
          what: 'Redo: the files as they were before the last /rewind',
          alsoConversation: false,
        })
      : null;
  if (files === 'rejected') return;
  const kept = rewind.context_branch;
  const conversation = rewind.conversation && kept !== null && /^context_\d+\.jsonl$/.test(kept);
  if (conversation) await context.replaceWith(join(parts.sessionDir, kept));
  await parts.checkpoints.note({
    type: 'redo',
    code: files !== null,
    conversation,
    after_checkpoint: files?.after ?? null,
    at: Date.now(),
  });
  finish(parts, history.turns.length + branch.turns.length, true, files, conversation);
}

/** Plans, shows, asks and applies the files' part; 'rejected' when the person said no. */
async function restoreFiles(
  parts: RewindRun,
  targetId: string,
  spans: [string, string][],
  lastEnd: string | null,
  force: boolean,
  signal: AbortSignal,
  label: { what: string; alsoConversation: boolean },
): Promise<FilesOutcome | 'rejected'> {
  const { store, checkpoint: now } = await parts.checkpoints.recordNow('before rewind', {
    cleanLeftovers: true,
  });
  if (lastEnd) spans.push([lastEnd, now.id]);
  const planned = await planFilesRestore(store, now, targetId, spans, signal);
  // Every file goes through the policy first, like an edit tool's write.
  const verdict = await judgeRestore(parts.policy, store.roots, planned.changes);
  if (verdict.refusal !== null) {
    say(
      parts.soul,
      `Rewind refused: ${verdict.refusal} No file and nothing of the conversation was changed.`,
    );
    return 'rejected';
  }
  const plan: FilesPlan = { ...planned, changes: verdict.allowed };
  const keptLines = verdict.kept.map(
    ({ change, reason }) =>
      `  ! ${listedPath(store.roots, change.root, change.path)}: kept, ${sanitizeOneLine(reason)}`,
  );
  const summary = [
    `${label.what}${label.alsoConversation ? ', files and conversation' : ''}.`,
    describePlan(plan),
    ...keptLines,
  ].join('\n');
  // What follows (the outcome) is another text part of the same answer: start it on its own line.
  say(parts.soul, `${summary}\n`);
  if (plan.changes.length === 0) {
    return { report: { applied: [], left: verdict.kept, kept: [] }, plan, after: now.id };
  }
  // The person typed /rewind: a plain restore inside the workspace is not asked about again (the
  // policy already refused what it must: plan mode, deny rules). Only what the policy has more to say
  // about — a secret file, a rule that asks, a path that leads elsewhere — waits for their word.
  const question = verdict.question;
  if (question && (question.evenIfAutoApproving || question.notes.length > 0)) {
    const approved = await askRewindApproval(
      parts.approval,
      REWIND_FILES_ACTION,
      [
        `${label.what}: the files listed above. The policy notes:`,
        // A note may name a file (or where its symlink leads): one line each, whatever the name holds.
        ...question.notes.map((n) => `  ? ${sanitizeOneLine(n)}`),
      ].join('\n'),
      signal,
      parts.soul.parts.runScope.current(),
      question,
    );
    if (!approved) {
      say(parts.soul, 'Rewind rejected: no file and nothing of the conversation was changed.');
      return 'rejected';
    }
  }
  const elsewhere = plan.changes.filter((c) => c.changedElsewhere);
  let includeElsewhere = force;
  // Someone else's work is only overwritten on a person's word: never by yolo or afk alone.
  if (elsewhere.length > 0 && !force && !parts.approval.isAutoApprove()) {
    const list = elsewhere.map((c) => `  ${listedPath(store.roots, c.root, c.path)}`).join('\n');
    includeElsewhere = await askRewindApproval(
      parts.approval,
      'rewind files changed by someone else',
      `${elsewhere.length === 1 ? 'This file was' : `These ${elsewhere.length} files were`} changed since by someone other than this session. Overwrite them too?\n${list}`,
      signal,
      parts.soul.parts.runScope.current(),
    );
  }
  const report = await applyFilesPlan(plan, includeElsewhere, signal);
  report.left.unshift(...verdict.kept);
  const after = await parts.checkpoints.recordNow('after rewind');
  return { report, plan, after: after.checkpoint.id };
}

/** Whether the context still holds the turn at its checkpoint (no compaction or /clear since). */
function holdsTurn(context: Context, turn: TurnEntry): boolean {
  const after = context.messagesAfterCheckpoint(turn.contextCheckpoint);
  return (
    after?.some((m) => m.role === 'user' && sha256(extractText(m, '\n')) === turn.contextTextSha256) ?? false
  );
}

function finish(
  parts: RewindRun,
  turn: number,
  redone: boolean,
  files: FilesOutcome | null,
  conversation: boolean,
): void {
  const roots = files?.plan?.store.roots ?? [];
  const name = (c: { root: number; path: string }) => displayPath(roots, c.root, c.path);
  const applied = files?.report?.applied ?? [];
  const payload: RewindDone = {
    turn,
    redo: redone,
    code_rewound: files !== null,
    conversation_rewound: conversation,
    restored: applied.filter((c) => c.kind !== 'remove').map(name),
    removed: applied.filter((c) => c.kind === 'remove').map(name),
    kept: [
      ...(files?.report?.left ?? []).map(({ change, reason }) => ({ path: name(change), reason })),
      ...(files?.report?.kept ?? []).map((file) => ({ path: name(file), reason: file.reason })),
    ],
    skipped: files?.plan?.skipped ?? [],
  };
  const lines = [
    `${redone ? 'Redone' : `Rewound to before turn ${turn}`}: ${filesCount(payload.restored.length)} restored, ` +
      `${payload.removed.length} removed; conversation ${conversation ? 'rewound' : 'unchanged'}.`,
  ];
  // The payload keeps the names as they are (a wire client's data); the text shows them escaped.
  for (const kept of payload.kept)
    lines.push(`  kept ${sanitizeOneLine(kept.path)}: ${sanitizeOneLine(kept.reason)}`);
  if (payload.kept.some((k) => k.reason.includes('someone else')))
    lines.push('Run /rewind again with --force to overwrite the files kept.');
  say(parts.soul, lines.join('\n'));
  parts.soul.send(wireEvent('RewindDone', payload));
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
