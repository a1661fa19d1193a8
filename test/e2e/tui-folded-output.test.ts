import { describe, expect, it } from 'vitest';
import { liveCli } from '../support/run-cli.js';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

/** 21 lines: row-1 … row-20, then one with an OSC title sequence that must stay inert. */
const COMMAND = 'for i in $(seq 1 20); do echo "row-$i"; done; printf "evil-\\033]0;pwned\\007-end\\n"';
const TURNS = [
  { toolCalls: [{ id: 's', name: 'Shell', args: { command: COMMAND } }] },
  { text: 'Listed the rows.' },
];

describe("a command's output shown inline, folded", () => {
  it('TUI: the first and last lines under the call, the rest counted; Ctrl-E unfolds and folds again', async () => {
    await cli.setup(TURNS);
    const tui = cli.startTui({ args: ['--yolo'], height: 50 });
    await tui.waitFor(TUI_READY);
    tui.type('list the rows');
    tui.press('Enter');
    const folded = await tui.waitFor('Listed the rows.');
    const lines = folded.split('\n').map((line) => line.trim());
    const at = lines.indexOf('row-1');
    expect(lines.slice(at, at + 7)).toEqual([
      'row-1',
      'row-2',
      'row-3',
      '… 15 lines hidden (Ctrl-E)',
      'row-19',
      'row-20',
      'evil-␛]0;pwned␇-end',
    ]);
    expect(folded).not.toContain('row-10');
    expect(tui.title()).not.toContain('pwned');

    tui.press('C-e');
    const open = await tui.waitFor('row-10');
    expect(open).not.toContain('lines hidden');
    tui.press('C-e');
    await tui.waitUntil((screen) => screen.includes('lines hidden') && !screen.includes('row-10'), 'folded');
  });

  it('line shell: the first and last lines under the result line', async () => {
    const { sandbox } = await cli.setup(TURNS);
    const shell = liveCli(sandbox.spawn(['--yolo', '--ui', 'line']));
    shell.type('list the rows\n');
    await shell.waitFor('Listed the rows.');
    expect(await shell.end('/exit\n')).toBe(0);
    const lines = shell.stdout.split('\n').map((line) => line.trim());
    const at = lines.indexOf('row-1');
    expect(lines.slice(at - 1, at + 7)).toEqual([
      '✓ Command executed successfully.',
      'row-1',
      'row-2',
      'row-3',
      '… 15 lines hidden',
      'row-19',
      'row-20',
      expect.stringMatching(/^evil-.*-end$/),
    ]);
    expect(shell.stdout).not.toContain('row-10');
    expect(shell.stdout).not.toContain('\x1b]0;');
  });
});
