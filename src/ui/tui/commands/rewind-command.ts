import { describeChanges } from '../../../app/rewind/turn-list.js';
import { terminalText as t, trustedLiteral } from '../../../util/sanitize-terminal.js';
import { ChoicePicker } from '../choice-picker.js';
import { sanitizeForTerminal } from '../sanitize-for-terminal.js';
import { preview } from './preview.js';
import type { TuiCommand } from './tui-command.js';

/** What `/rewind` brings back, as the second picker offers it (the soul's flags). */
const MODES = [
  {
    value: 'both',
    label: trustedLiteral('Files and conversation'),
    description: trustedLiteral('--both: as before the turn, entirely'),
  },
  {
    value: 'code',
    label: trustedLiteral('Files only'),
    description: trustedLiteral('--code: the conversation stays as it is'),
  },
  {
    value: 'conversation',
    label: trustedLiteral('Conversation only'),
    description: trustedLiteral('--conversation: the files stay'),
  },
];

/**
 * `/rewind` with no argument: a picker of the turns (number, prompt on one line, what each changed
 * in the files), then what to bring back (files and conversation / files only / conversation only);
 * then the session's own `/rewind n --mode` runs as a turn, which shows the diff summary and asks
 * through an approval panel. Esc in either picker leaves with nothing done. `/rewind n …`,
 * `/rewind list` and `/rewind --redo` go to the session as typed.
 */
export const rewindCommand: TuiCommand = {
  name: 'rewind',
  description: 'go back to before a turn, files and conversation (a list to choose from; or /rewind N)',
  available: (session) => session.slashCommands.some((c) => c.name === 'rewind'),
  async run(args, context) {
    const { session, style } = context;
    if (args.trim()) return context.send(`/rewind ${args.trim()}`);
    const list = await session.rewindTurns();
    if (list === null) return context.send('/rewind');
    if (list.turns.length === 0)
      return context.note(
        style.dim(
          list.redoable
            ? 'There is no turn to rewind; /rewind --redo undoes the last rewind.'
            : 'There is no turn to rewind yet.',
        ),
      );
    const turn = await context.pick(
      new ChoicePicker(
        trustedLiteral('Go back to before which turn? (the files and the conversation of then)'),
        list.turns.map((turn) => ({
          value: String(turn.n),
          label: t`${turn.n}. ${preview(turn.prompt, 60)}`,
          description: sanitizeForTerminal(describeChanges(turn.changes) || 'changes not known'),
        })),
        style,
        list.turns.length - 1,
        'chooses',
      ),
    );
    if (turn === null) return;
    const mode = await context.pick(
      new ChoicePicker(
        t`Rewind to before turn ${sanitizeForTerminal(turn)}: bring back what?`,
        [...MODES],
        style,
        0,
        'chooses',
      ),
    );
    if (mode === null) return;
    context.send(`/rewind ${turn} --${mode}`);
  },
};
