import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { TUI_PANEL_ARMED } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

const touch = (id: string, file: string): ScriptedTurn => ({
  toolCalls: [{ id, name: 'Shell', args: { command: `touch ${file}` } }],
});

const startWith = (turns: ScriptedTurn[]) => cli.startWith(turns);

const made = (file: string) => existsSync(join(cli.sandbox.workDir, file));

describe('terminal UI: the approval panel', () => {
  it('1 approves once: the next call of the same command asks again', async () => {
    const tui = await startWith([touch('a', 'one.txt'), touch('b', 'one.txt'), { text: 'Both ran.' }]);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    tui.type('1');
    await tui.waitUntil(
      (s) => (s.match(/✓ Shell touch one\.txt/g) ?? []).length === 1 && s.includes(TUI_PANEL_ARMED),
      'a second panel after the first call ran',
    );
    expect(made('one.txt')).toBe(true);
    tui.type('1');
    await tui.waitFor('Both ran.');
  });

  it('2 then "every action" approves for the session: a different command runs without asking', async () => {
    const tui = await startWith([touch('a', 'first.txt'), touch('b', 'second.txt'), { text: 'All made.' }]);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    tui.type('2');
    const scope = await tui.waitFor('1. Only');
    expect(scope).toContain('1. Only `touch first.txt`, for this session');
    expect(scope).toContain('3. Every "run command", for this session');
    tui.type('3');
    const screen = await tui.waitFor('All made.');
    expect(screen).not.toContain(TUI_PANEL_ARMED);
    expect(made('first.txt') && made('second.txt')).toBe(true);
  });

  it('3 (or ↓↓ + Enter) rejects: nothing runs and the turn ends', async () => {
    const tui = await startWith([touch('a', 'no.txt'), touch('b', 'no2.txt')]);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    tui.type('3');
    await tui.waitFor(/✗ Shell touch no\.txt/);
    expect(made('no.txt')).toBe(false);

    tui.type('again');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    tui.press('Down', 'Down', 'Enter');
    await tui.waitFor(/✗ Shell touch no2\.txt/);
    expect(made('no2.txt')).toBe(false);
    expect(cli.server.requests).toHaveLength(2);
  });

  it('4 rejects with what to do instead, which the model reads', async () => {
    const tui = await startWith([touch('a', 'build.txt'), { text: 'Understood, I will not touch it.' }]);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    tui.type('4');
    await tui.waitFor('What should it do instead?');
    tui.type('use the Makefile instead');
    tui.press('Enter');
    await tui.waitFor('Understood, I will not touch it.');
    expect(made('build.txt')).toBe(false);
    expect(JSON.stringify(cli.server.requests[1]?.body)).toContain('use the Makefile instead');
  });

  it('keys typed before the panel appeared never answer it', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Held before the tool call: a call runs (and its panel shows) as soon as its arguments are in,
    // so a hold after them let the panel come, and arm, before the keys below were typed.
    const tui = await startWith([
      { text: 'Working on it…', ...touch('a', 'typed-ahead.txt'), holdBeforeToolCalls: held },
      { text: 'Got your next request.' },
    ]);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor('Working on it…');
    // While the model still streams, the user types what would approve (and confirm) the panel.
    tui.type('1');
    tui.press('Enter');
    tui.type('y1');
    // Taken by the terminal UI before the panel came: the line queued as the next prompt, the rest
    // in the editor (not left to race the panel: under load tmux once handed the keys over after
    // the panel had armed, and the 1 approved).
    await tui.waitFor('queued: 1');
    await tui.waitFor(/^\W*y1\s*$/m);
    release();
    // Armed: its plain hint, or (when the typing reached it after it appeared) the typed-in-flight one.
    const panel = await tui.waitFor(/↑\/↓ \+ Enter, or a number|You were typing when this appeared/);
    expect(panel).toContain('1. Approve once');
    expect(made('typed-ahead.txt')).toBe(false);
    tui.type('3');
    await tui.waitFor(/✗ Shell touch typed-ahead\.txt/);
    expect(made('typed-ahead.txt')).toBe(false);
    // The line typed ahead was the next prompt, never an answer.
    await tui.waitFor('Got your next request.');
    const next = cli.server.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(next.messages.at(-1)).toMatchObject({ role: 'user', content: '1' });
  });
});
