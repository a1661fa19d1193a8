import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { TUI_PANEL_ARMED } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

const shell = (id: string, command: string): ScriptedTurn => ({
  toolCalls: [{ id, name: 'Shell', args: { command } }],
});

const startWith = (turns: ScriptedTurn[]) => cli.startWith(turns);

const made = (file: string) => existsSync(join(cli.sandbox.workDir, file));

describe('terminal UI: approve for this session, in a scope', () => {
  it('"only this command": the same command runs again without asking, a different one asks', async () => {
    const tui = await startWith([
      shell('a', 'touch same.txt'),
      shell('b', 'touch same.txt'),
      shell('c', 'touch other.txt'),
    ]);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    tui.type('2');
    await tui.waitFor('1. Only `touch same.txt`, for this session');
    tui.type('1');
    // The second, identical call ran without a panel; the third, different one asks.
    const asking = await tui.waitUntil(
      (s) => (s.match(/✓ Shell touch same\.txt/g) ?? []).length === 2 && s.includes(TUI_PANEL_ARMED),
      'two runs of the same command, then a panel',
    );
    expect(asking).toContain('$ touch other.txt');
    // Rejecting ends the turn.
    tui.type('3');
    await tui.waitFor(/✗ Shell touch other\.txt/);
    expect(made('other.txt')).toBe(false);
  });

  it('"commands starting with": covered commands run without asking, one with another part asks; s saves the rule', async () => {
    const tui = await startWith([
      shell('a', 'echo one'),
      shell('b', 'echo two && echo three'),
      shell('c', 'echo four; touch evil.txt'),
    ]);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    tui.type('2');
    await tui.waitFor('2. Commands starting with `echo`, for this session');
    tui.type('s');
    await tui.waitFor('[x] s: also save it as an allow rule');
    tui.type('2');
    const asking = await tui.waitUntil(
      (s) => s.includes('✓ Shell echo two && echo three') && s.includes(TUI_PANEL_ARMED),
      'the covered command run, then a panel for the other',
    );
    expect(asking).toContain('$ echo four; touch evil.txt');
    tui.type('3');
    await tui.waitFor(/✗ Shell echo four; touch evil\.txt/);
    expect(made('evil.txt')).toBe(false);
    const rules = readFileSync(join(cli.sandbox.workDir, '.kimi-ts', 'permissions.toml'), 'utf8');
    expect(rules).toContain('pattern = "Shell(echo *)"');
  });
});
