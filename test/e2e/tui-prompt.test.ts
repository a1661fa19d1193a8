import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

describe('terminal UI: the prompt editor', () => {
  it('Ctrl-J adds a line; ↑ recalls the work dir’s history, also in a later run', async () => {
    await cli.setup([{ text: 'Got two lines.' }, { text: 'Got it again.' }]);
    const tui = cli.startTui({ args: ['--yolo'] });
    await tui.waitFor(TUI_READY);
    // The prompt is up at once; the status line comes when the session is built.
    await tui.waitFor('yolo');
    tui.type('line one');
    tui.press('C-j');
    tui.type('line two');
    await tui.waitUntil((s) => /line one\n.*line two/.test(s), 'two lines in the editor');
    tui.press('Enter');
    await tui.waitFor('Got two lines.');
    await tui.waitForIdle();
    expect(JSON.stringify(cli.server.requests[0]?.body)).toContain('line one\\nline two');
    tui.type('/exit');
    tui.press('Enter');
    expect(await tui.waitForExit()).toBe(0);
    tui.close();

    const again = cli.startTui();
    await again.waitFor(TUI_READY);
    again.press('Up');
    await again.waitFor('line two');
    again.press('Enter');
    await again.waitFor('Got it again.');
    expect(JSON.stringify(cli.server.requests[1]?.body)).toContain('line one\\nline two');
  });

  it('completes slash commands with their descriptions', async () => {
    await cli.setup([]);
    const tui = cli.startTui();
    await tui.waitFor(TUI_READY);
    tui.type('/ex');
    const menu = await tui.waitFor('leave kimi-ts');
    expect(menu).toMatch(/exit\s+.*leave kimi-ts/);
  });

  it('Ctrl-O writes the prompt in $EDITOR, starting from what was typed', async () => {
    await cli.setup([{ text: 'Read the edited prompt.' }]);
    const editor = join(cli.sandbox.root, 'edit.mjs');
    await writeFile(
      editor,
      "import { readFileSync, writeFileSync } from 'node:fs';\nconst f = process.argv[2];\nwriteFileSync(f, readFileSync(f, 'utf8') + ' and more from the editor');\n",
    );
    const tui = cli.startTui({ env: { EDITOR: `${process.execPath} ${editor}` } });
    await tui.waitFor(TUI_READY);
    tui.type('draft text');
    tui.press('C-o');
    await tui.waitFor('draft text and more from the editor');
    tui.press('Enter');
    await tui.waitFor('Read the edited prompt.');
    expect(JSON.stringify(cli.server.requests[0]?.body)).toContain('draft text and more from the editor');
  });

  it('@ completes paths, git-tracked files first, and Tab puts the path in the prompt', async () => {
    await cli.setup([{ text: 'Looked at it.' }]);
    const work = cli.sandbox.workDir;
    await mkdir(join(work, 'src'));
    await writeFile(join(work, 'src', 'tracked-module.ts'), 'export {};\n');
    await writeFile(join(work, 'untracked-module.ts'), 'export {};\n');
    execFileSync('git', ['init', '-q'], { cwd: work });
    execFileSync('git', ['add', 'src/tracked-module.ts'], { cwd: work });
    // git runs in the work dir only once the folder is trusted (tui-workspace-trust.test.ts).
    const tui = cli.startTui({ args: ['--trust-workspace'] });
    await tui.waitFor(TUI_READY);
    tui.type('look at @modu');
    const menu = await tui.waitFor('untracked-module.ts');
    expect(menu.indexOf('src/tracked-module.ts')).toBeGreaterThan(-1);
    expect(menu.indexOf('src/tracked-module.ts')).toBeLessThan(menu.indexOf('untracked-module.ts'));
    tui.press('Tab');
    await tui.waitFor('look at @src/tracked-module.ts');
    tui.press('Enter');
    await tui.waitFor('Looked at it.');
    expect(JSON.stringify(cli.server.requests[0]?.body)).toContain('look at @src/tracked-module.ts');
  });
});
