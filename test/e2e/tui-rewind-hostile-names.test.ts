import { readdir } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

// The terminal UI's /rewind with a file name a command chose: an OSC title escape, a carriage
// return and a newline in it. It shows as visible symbols on its entry's own line.
const cli = useTuiCli();

it('/rewind n in the terminal UI lists a hostile file name escaped, on one line', async () => {
  await cli.setup([
    {
      toolCalls: [
        {
          id: 's1',
          name: 'Shell',
          args: { command: 'touch "$(printf \'evil\\033]0;pwned\\007 X\\rY\\n  - forged.txt\')"' },
        },
      ],
    },
    { text: 'Made it.' },
  ]);
  const made = await cli.sandbox.run(['--print', '-p', 'make a file']);
  expect(made.code).toBe(0);
  const tui = cli.startTui({ args: ['-C'] });
  await tui.waitFor(TUI_READY);
  await tui.waitFor('Made it.');
  tui.type('/rewind 1');
  tui.press('Enter');
  const screen = await tui.waitFor('Rewound to before turn 1');
  await tui.waitForIdle();
  expect(screen).toContain('pwned');
  // No line of its own starts with what followed the newline in the name (a forged entry).
  expect(tui.screen()).not.toMatch(/^\s*- forged\.txt/m);
  expect(tui.screenWithEscapes()).not.toContain('\x1b]0;pwned');
  expect((await readdir(cli.sandbox.workDir)).some((name) => name.includes('pwned'))).toBe(false);
});
