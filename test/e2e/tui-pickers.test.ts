import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { type TmuxTerminal, TUI_PANEL_ARMED, TUI_PICKER_ARMED, TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

// `/model` and `/rewind` pickers of the terminal UI, through the built CLI in tmux panes against the
// scripted model server (two models in the config: e2e, and other with optional thinking).
const cli = useTuiCli();

const OTHER_MODEL = [
  '[models.other]',
  'provider = "local"',
  'model = "other-model"',
  'max_context_size = 50000',
  'capabilities = ["thinking"]',
  '',
].join('\n');

const modelOf = (n: number) => (cli.server.requests[n]?.body as { model?: string } | undefined)?.model;

/** Sends a prompt and waits for the answer to show and the turn to end. */
async function converse(tui: TmuxTerminal, prompt: string, answer: string): Promise<void> {
  tui.type(prompt);
  tui.press('Enter');
  await tui.waitFor(answer);
  await tui.waitForIdle();
}

/** Types a command of the TUI's own, waits for its completion entry, and sends it. */
async function command(tui: TmuxTerminal, text: string, description: string): Promise<void> {
  tui.type(text);
  await tui.waitFor(description);
  tui.press('Enter');
}

/** Waits until the picker titled `title` shows and takes keys; returns the screen. */
async function pickerArmed(tui: TmuxTerminal, title: string): Promise<string> {
  await tui.waitFor(title);
  return tui.waitFor(TUI_PICKER_ARMED);
}

describe('terminal UI: /model', () => {
  it('a picker of the configured models switches the running session; the next request goes to the other model', async () => {
    await cli.setup([{ text: 'From the e2e model.' }, { text: 'From the other model.' }], {
      extraToml: OTHER_MODEL,
    });
    const tui = cli.startTui();
    await tui.waitFor(TUI_READY);
    await converse(tui, 'first question', 'From the e2e model.');

    await command(tui, '/model', 'switch the model');
    const picker = await pickerArmed(tui, 'Switch to which model?');
    expect(picker).toContain('* e2e');
    expect(picker).toMatch(/other\s+other-model \(local\) · 50k context · thinking on\/off/);
    // Never a key or the endpoint.
    expect(picker).not.toContain('sk-e2e-test-key');
    expect(picker).not.toContain('127.0.0.1');
    tui.press('Down');
    tui.press('Enter');
    await pickerArmed(tui, 'Thinking for other?');
    tui.press('Down'); // on
    tui.press('Enter');
    const switched = await tui.waitFor('Using the model other (thinking on)');
    expect(switched).toContain('saved as the default');
    await tui.waitFor('other · thinking');

    // Kimi CLI's /model keeps the choice as the default: the TOML is edited as text, the rest kept.
    const config = await readFile(cli.sandbox.configFile, 'utf8');
    expect(config).toMatch(/^default_thinking = true$/m);
    expect(config).toMatch(/^default_model = "other"$/m);
    expect(config).toContain('api_key = "sk-e2e-test-key"');
    expect(config).toContain(OTHER_MODEL);

    await converse(tui, 'second question', 'From the other model.');
    expect([modelOf(0), modelOf(1)]).toEqual(['e2e-model', 'other-model']);
    // Thinking on reached the provider (openai_legacy: reasoning_effort).
    expect(cli.server.requests[0]?.body).not.toHaveProperty('reasoning_effort');
    expect(cli.server.requests[1]?.body).toHaveProperty('reasoning_effort', 'high');
    // The same session: the second request carries the first turn.
    expect(JSON.stringify(cli.server.requests[1]?.body)).toContain('first question');
  });

  it('/model ALIAS switches at once; an unknown alias names the configured ones; a refused switch says why; keys typed ahead choose nothing', async () => {
    const broken =
      '[providers.nowhere]\ntype = "openai_legacy"\nbase_url = ""\napi_key = "sk-broken-key"\n[models.broken]\nprovider = "nowhere"\nmodel = "b"\nmax_context_size = 1000\n';
    await cli.setup([{ text: 'Other answers.' }], { extraToml: OTHER_MODEL + broken });
    const before = await readFile(cli.sandbox.configFile, 'utf8');
    const tui = cli.startTui();
    await tui.waitFor(TUI_READY);

    tui.type('/model nosuch');
    tui.press('Enter');
    await tui.waitFor("unknown model alias 'nosuch'; configured: e2e, other, broken");

    tui.type('/model broken');
    tui.press('Enter');
    const refused = await tui.waitFor('Cannot switch to broken:');
    expect(refused).toContain(
      'Cannot switch to broken: provider "nowhere" (model "broken") has an empty base_url.',
    );
    expect(refused).not.toContain('Configure a model');
    expect(refused).not.toContain('sk-broken-key');
    // Still the first model (waited for: a capture may catch a frame half drawn).
    await tui.waitFor(/^e2e · /m);

    // Keys pressed with the command (one write: Enter, Down, Enter), before the picker could be seen:
    // they choose nothing.
    tui.type('/model \r\x1b[B\r');
    await pickerArmed(tui, 'Switch to which model?');
    expect(tui.screen()).not.toContain('Using the model');
    expect(tui.screen()).not.toContain('Thinking for other?');
    tui.press('Escape');
    await tui.waitUntil((s) => !s.includes('Switch to which model?'), 'the picker gone');
    expect(await readFile(cli.sandbox.configFile, 'utf8')).toBe(before);

    tui.type('/model other --no-thinking');
    tui.press('Enter');
    await tui.waitFor('Using the model other (thinking off)');
    await converse(tui, 'hello', 'Other answers.');
    expect(modelOf(0)).toBe('other-model');
  });
});

/** A turn that creates new.txt and edits a.txt, with the edit tools. */
const CHANGING_TURN: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'w1', name: 'WriteFile', args: { path: 'new.txt', content: 'created by the agent\n' } },
      { id: 'e1', name: 'StrReplaceFile', args: { path: 'a.txt', edit: { old: 'alpha', new: 'beta' } } },
    ],
  },
  { text: 'Changed the files.' },
];

/** A hostile prompt: it clears the screen, sets the title and colours, if a terminal ever read it. */
const HOSTILE_PROMPT = 'change \x1b[2J\x1b]0;pwned\x07the files \x1b[31mplease';

/**
 * Two turns run in print mode (the first changes files, with a hostile prompt), then the TUI resumes
 * the session (`-C`).
 */
async function sessionWithTwoTurns(): Promise<{ tui: TmuxTerminal; work: string }> {
  await cli.setup([...CHANGING_TURN, { text: 'Nothing to change.' }]);
  const work = cli.sandbox.workDir;
  await writeFile(join(work, 'a.txt'), 'alpha\n');
  // Print mode approves for this run only (afk): the TUI asks again.
  const first = await cli.sandbox.run(['--print', '-p', HOSTILE_PROMPT]);
  expect(first.code).toBe(0);
  const second = await cli.sandbox.run(['-C', '--print', '-p', 'just talk']);
  expect(second.code).toBe(0);
  expect(existsSync(join(work, 'new.txt'))).toBe(true);
  const tui = cli.startTui({ args: ['-C'] });
  await tui.waitFor(TUI_READY);
  await tui.waitFor('Nothing to change.');
  return { tui, work };
}

describe('terminal UI: /rewind', () => {
  it('a picker of turns with what each changed, then the mode: the files come back with no approval asked, summary and result once', async () => {
    const { tui, work } = await sessionWithTwoTurns();
    await command(tui, '/rewind', 'go back to before a turn');
    const picker = await pickerArmed(tui, 'Go back to before which turn?');
    expect(picker).toMatch(
      /1\. change ␛\[2J␛\]0;pwned␇the files ␛\[31mplease\s+1 created, 1 modified, 0 deleted/,
    );
    expect(picker).toMatch(/2\. just talk\s+no file changes/);
    // The hostile prompt stayed text: no colour, no cleared screen, no title.
    expect(tui.screenWithEscapes()).not.toContain('\x1b[31mplease');
    tui.press('Up'); // the last turn is selected at first
    tui.press('Enter');
    const modes = await pickerArmed(tui, 'Rewind to before turn 1: bring back what?');
    expect(modes).toContain('Files and conversation');
    tui.press('Down'); // files only
    tui.press('Enter');
    // The person chose it: no approval panel; the summary once, one result line, plurals right.
    const done = await tui.waitFor('Rewound to before turn 1');
    await tui.waitForIdle();
    const screen = tui.screen();
    expect(screen).not.toContain(TUI_PANEL_ARMED);
    expect(screen.match(/Files: 1 file modified back, 1 file created since removed/g)).toHaveLength(1);
    expect(screen.match(/- new\.txt/g)).toHaveLength(1);
    expect(screen.match(/ewound to before turn 1/gi)).toHaveLength(1);
    expect(done).toContain('Rewound to before turn 1: 1 file restored, 1 removed; conversation unchanged.');
    expect(existsSync(join(work, 'new.txt'))).toBe(false);
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('Esc in either picker backs out with nothing done; keys typed ahead choose nothing', async () => {
    const { tui, work } = await sessionWithTwoTurns();
    const requests = cli.server.requests.length;

    // Enter typed with the command, before the picker could be seen, does not choose turn 2.
    tui.type('/rewind \r\r');
    await pickerArmed(tui, 'Go back to before which turn?');
    expect(tui.screen()).not.toContain('bring back what?');
    tui.press('Escape');
    await tui.waitUntil((s) => !s.includes('Go back to before which turn?'), 'the turn picker gone');

    await command(tui, '/rewind', 'go back to before a turn');
    await pickerArmed(tui, 'Go back to before which turn?');
    tui.press('Up');
    tui.press('Enter');
    await pickerArmed(tui, 'bring back what?');
    tui.press('Escape');
    await tui.waitUntil((s) => !s.includes('bring back what?'), 'the mode picker gone');

    expect(tui.screen()).not.toContain('Rewound');
    expect(existsSync(join(work, 'new.txt'))).toBe(true);
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('beta\n');
    expect(cli.server.requests.length).toBe(requests);
  });
});
