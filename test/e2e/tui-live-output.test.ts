import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

describe('terminal UI: a running command', () => {
  it('shows its last lines while it runs (inert), then the one-line summary', async () => {
    const command =
      'for i in 1 2 3 4 5 6 7; do echo "out-line-$i"; done; printf "bar 10%%\\rbar 99%%\\n"; printf "\\033[2Jred\\n"; for i in $(seq 300); do [ -f go ] && break; sleep 0.1; done; echo done-now';
    await cli.setup([
      { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
      { text: 'The command ended.' },
    ]);
    const tui = cli.startTui({ args: ['--yolo'] });
    await tui.waitFor(TUI_READY);
    tui.type('run it');
    tui.press('Enter');

    // While it waits for the go file, its latest lines show under the spinner.
    const live = await tui.waitFor('│ ␛[2Jred');
    expect(live).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Shell for i in/);
    expect(live).toContain('│ out-line-7');
    expect(live).toContain('│ bar 99%');
    expect(live).not.toContain('bar 10%');
    expect(live).not.toContain('out-line-3');

    // Let it end: the live lines give way to the summary.
    writeFileSync(join(cli.sandbox.workDir, 'go'), '');
    const done = await tui.waitFor('The command ended.');
    expect(done).toMatch(/✓ Shell for i in/);
    expect(done).not.toContain('│ out-line-7');
  });
});
