import type { AgentSession } from '../../../app/agent-session.js';
import { terminalText as t, trustedLiteral } from '../../../util/sanitize-terminal.js';
import { ChoicePicker, type SafeSelectItem } from '../choice-picker.js';
import { sanitizeForTerminal } from '../sanitize-for-terminal.js';
import { preview } from './preview.js';
import type { TuiCommand, TuiCommandContext } from './tui-command.js';

/** `2026-12-02 01:03`, in local time. */
function when(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** Runs `work` (which makes the next session); an error becomes a note instead of a crash. */
async function switchTo(
  context: TuiCommandContext,
  work: () => Promise<AgentSession>,
  extra: { prefill?: string; notice?: string } = {},
): Promise<void> {
  try {
    const session = await work();
    context.restart({ session, ...extra });
  } catch (error) {
    context.note(
      t`${context.style.error('Error:')} ${sanitizeForTerminal(error instanceof Error ? error.message : String(error))}`,
    );
  }
}

const unavailable = (context: TuiCommandContext) =>
  context.note(context.style.warn('Sessions cannot be switched in this run.'));

export const newSessionCommand: TuiCommand = {
  name: 'new',
  needsRestart: true,
  description: 'start a new session in this directory',
  async run(_args, context) {
    const { sessions } = context;
    if (!sessions) return unavailable(context);
    await switchTo(context, () => sessions.create());
  },
};

export const sessionsCommand: TuiCommand = {
  name: 'sessions',
  needsRestart: true,
  aliases: ['resume'],
  description: "switch to another of this directory's sessions (a list to choose from; or /sessions ID)",
  async run(args, context) {
    const { sessions, session: current, style } = context;
    if (!sessions) return unavailable(context);
    // The lists show 8-character ids: any unique prefix names a session.
    let id = args.trim() ? await sessions.resolve(args.trim()) : '';
    if (!id) {
      const saved = await sessions.list();
      const others = saved.filter((s) => s.id !== current.sessionId);
      if (others.length === 0) return context.note(style.dim('No other saved sessions in this directory.'));
      const items: SafeSelectItem[] = saved.map((s) => ({
        value: s.id,
        label: t`${s.id === current.sessionId ? trustedLiteral('* ') : t``}${preview(s.title)}`,
        description: sanitizeForTerminal(`${when(s.updatedAt)}  ${s.id.slice(0, 8)}`),
      }));
      const chosen = await context.pick(
        new ChoicePicker(
          trustedLiteral('Sessions of this directory (newest first; * is this one)'),
          items,
          style,
          Math.max(
            0,
            saved.findIndex((s) => s.id !== current.sessionId),
          ),
        ),
      );
      if (chosen === null) return;
      id = chosen;
    }
    if (id === current.sessionId) return context.note(style.dim('That is this session.'));
    await switchTo(context, async () => {
      const opened = await sessions.open(id);
      if (!opened) throw new Error(`There is no session ${id} in this directory.`);
      return opened;
    });
  },
};

export const forkCommand: TuiCommand = {
  name: 'fork',
  needsRestart: true,
  description: 'continue in a copy of this session (this one stays as it is)',
  async run(_args, context) {
    const { sessions, session } = context;
    if (!sessions) return unavailable(context);
    await switchTo(context, () => sessions.fork(session), {
      notice: `forked from session ${session.sessionId}`,
    });
  },
};

export const undoCommand: TuiCommand = {
  name: 'undo',
  needsRestart: true,
  description: 'go back to before a turn, in a new session (a list to choose from; or /undo N)',
  async run(args, context) {
    const { sessions, session, style } = context;
    if (!sessions) return unavailable(context);
    const points = await sessions.undoPoints(session);
    if (points.length === 0) return context.note(style.dim('There is no turn to undo.'));
    let n = args.trim();
    if (!n) {
      const chosen = await context.pick(
        new ChoicePicker(
          trustedLiteral('Go back to before which turn? (a new session; this one stays as it is)'),
          points.map((p) => ({ value: String(p.n), label: t`${p.n}. ${preview(p.text)}` })),
          style,
          points.length - 1,
        ),
      );
      if (chosen === null) return;
      n = chosen;
    }
    const point = points.find((p) => String(p.n) === n);
    if (!point)
      return context.note(
        style.warn(t`There is no turn ${sanitizeForTerminal(n)} to undo; /undo lists them.`),
      );
    await switchTo(context, () => sessions.undo(session, point.n), {
      prefill: point.text,
      notice: `went back to before turn ${point.n} of session ${session.sessionId}; its request is in the editor`,
    });
  },
};
