import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TUI_PANEL_ARMED, TUI_PICKER_ARMED, TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

// Issue 24, cause 1, in the interactive front ends: a repository shipping an allow rule in
// `.kimi-ts/permissions.toml` is asked about once at start, in a real terminal (tmux).
const cli = useTuiCli();

const shell = (id: string, command: string) => ({ toolCalls: [{ id, name: 'Shell', args: { command } }] });
const TRUST_TITLE = 'Trust the folder';

async function plantRules(workDir: string): Promise<void> {
  await mkdir(join(workDir, '.kimi-ts'), { recursive: true });
  await writeFile(
    join(workDir, '.kimi-ts', 'permissions.toml'),
    '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(touch *)"\n',
  );
}

describe('terminal UI: the workspace trust question', () => {
  it('asks once at start; "No" (the default) keeps the rule off and is remembered; /permissions trust changes it', async () => {
    await cli.setup([shell('s1', 'touch pwned'), shell('s2', 'touch pwned'), { text: 'Made it.' }]);
    await plantRules(cli.sandbox.workDir);
    const tui = cli.startTui();
    await tui.waitFor(TRUST_TITLE);
    const screen = await tui.waitFor(TUI_PICKER_ARMED);
    expect(screen).toContain('Yes, trust this folder');
    expect(screen).toContain('Yes, for this session only');
    // The selection starts on "No": an Enter typed ahead could only keep the folder untrusted.
    expect(screen).toMatch(/→ No/);
    tui.press('Enter');
    await tui.waitFor('Workspace not trusted');
    await tui.waitFor(TUI_READY);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    expect(tui.screen()).toContain('touch pwned');
    tui.press('Escape');
    await tui.waitForIdle();
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(false);
    // The "No" is in the trust record in the agent's home, not in the workspace.
    const record = JSON.parse(await readFile(join(cli.sandbox.home, 'trusted-folders.json'), 'utf8'));
    expect(record).toMatchObject({ folders: [], declined: [expect.stringContaining('work')] });
    tui.close();

    // The next start does not ask again; it says once why the rule is off.
    const again = cli.startTui();
    await again.waitFor('you said no before');
    await again.waitFor(TUI_READY);
    expect(again.history()).not.toContain(TRUST_TITLE);
    again.type('/permissions trust');
    again.press('Enter');
    await again.waitFor('trusted, remembered');
    await again.waitForIdle();
    again.type('go');
    again.press('Enter');
    await again.waitFor('Made it.');
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(true);
    const after = JSON.parse(await readFile(join(cli.sandbox.home, 'trusted-folders.json'), 'utf8'));
    expect(after.folders).toHaveLength(1);
    expect(after.declined).toEqual([]);
  });

  it('"Yes" puts the rule in force and is remembered: the next start does not ask', async () => {
    await cli.setup([shell('s1', 'touch pwned'), { text: 'Made it.' }, { text: 'Second start.' }]);
    await plantRules(cli.sandbox.workDir);
    const tui = cli.startTui();
    await tui.waitFor(TRUST_TITLE);
    await tui.waitFor(TUI_PICKER_ARMED);
    tui.press('Up');
    tui.press('Up');
    tui.press('Enter');
    await tui.waitFor('Workspace trusted.');
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor('Made it.');
    await tui.waitForIdle();
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(true);
    const record = JSON.parse(await readFile(join(cli.sandbox.home, 'trusted-folders.json'), 'utf8'));
    expect(record.folders).toHaveLength(1);
    tui.close();
    const next = cli.startTui();
    await next.waitFor(TUI_READY);
    next.type('hello');
    next.press('Enter');
    await next.waitFor('Second start.');
    expect(next.history()).not.toContain(TRUST_TITLE);
  });

  it('a folder with nothing for trust to enable is not asked about', async () => {
    const tui = await cli.startWith([{ text: 'Plain answer.' }]);
    tui.type('hi');
    tui.press('Enter');
    await tui.waitFor('Plain answer.');
    expect(tui.history()).not.toContain(TRUST_TITLE);
  });
});

describe("terminal UI: a repository's own .git/config", () => {
  it('untrusted: @ completion walks the folder instead of running git, so core.fsmonitor never runs', async () => {
    await cli.setup([{ text: 'Looked.' }]);
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'module-a.ts'), 'export {};\n');
    execFileSync('git', ['init', '-q'], { cwd: work });
    const marker = join(cli.sandbox.root, 'FSMONITOR_RAN');
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${marker}; false`], { cwd: work });
    const tui = cli.startTui();
    await tui.waitFor(TUI_READY);
    tui.type('look at @modu');
    await tui.waitFor('module-a.ts');
    tui.press('Tab');
    tui.press('Enter');
    await tui.waitFor('Looked.');
    expect(existsSync(marker)).toBe(false);
  });
});

describe('line shell: the workspace trust question', () => {
  it('"n" keeps the rule off and is remembered; /permissions trust on the next start trusts it, and the start after does not ask', async () => {
    await cli.setup([
      shell('s1', 'touch pwned'),
      shell('s2', 'touch pwned'),
      { text: 'Made it.' },
      { text: 'Third.' },
    ]);
    await plantRules(cli.sandbox.workDir);
    const first = cli.startTui({ ui: 'line' });
    await first.waitFor(/^trust\?/m);
    expect(first.screen()).toContain('Do you trust the folder');
    first.type('n');
    first.press('Enter');
    await first.waitFor('Not trusted');
    first.type('go');
    first.press('Enter');
    await first.waitFor(/^approve\?/m);
    first.type('3');
    first.press('Enter');
    await first.waitFor(/approve\? 3\n[\s\S]*^›/m);
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(false);
    first.close();

    const second = cli.startTui({ ui: 'line' });
    await second.waitFor('you said no before');
    await second.waitFor('Type a request');
    expect(second.history()).not.toContain('trust?');
    second.type('/permissions trust');
    second.press('Enter');
    await second.waitFor('trusted, remembered');
    second.type('go');
    second.press('Enter');
    await second.waitFor('Made it.');
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(true);
    expect(second.history()).not.toContain('approve?');
    second.close();

    const third = cli.startTui({ ui: 'line' });
    await third.waitFor('Type a request');
    third.type('hello');
    third.press('Enter');
    await third.waitFor('Third.');
    expect(third.history()).not.toContain('Do you trust');
  });
});
