import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { type TmuxTerminal, TUI_PICKER_ARMED, TUI_READY } from '../support/tmux-terminal.js';
import { type TuiOptions, useTuiCli } from '../support/tui-cli.js';

// These tests never rely on the TUI leaving after a turn: each checks what it asserts on the screen
// (or in the model server's requests) and the pane is closed after the test.
const ESC = '\x1b';
const cli = useTuiCli();
let terminal: TmuxTerminal | undefined;

/** The TUI in a pane; a second call closes the first pane (a restart in the same sandbox). */
function start(options: TuiOptions = {}): TmuxTerminal {
  terminal?.close();
  terminal = cli.startTui(options);
  return terminal;
}

const bodyOf = (n: number) => JSON.stringify(cli.server.requests[n]?.body);
/** The greeting, once the session is built (the prompt shows, and takes keys, before it). */
const GREETING = /kimi-ts — session [0-9a-f-]{36}/;
/** The session id of the last greeting on the screen. */
const sessionIdOn = (screen: string) =>
  /session ([0-9a-f-]{36})/.exec(screen.slice(screen.lastIndexOf('kimi-ts —')))?.[1];

/** Sends a prompt and waits for the answer to show. */
async function converse(tui: TmuxTerminal, prompt: string, answer: string): Promise<string> {
  tui.type(prompt);
  tui.press('Enter');
  const screen = await tui.waitFor(answer);
  await tui.waitForIdle();
  return screen;
}

describe('terminal UI: shell-level commands', () => {
  it('/new starts a session; /sessions lists this directory’s sessions and switches to the chosen one', async () => {
    await cli.setup([{ text: 'Answer in the first session.' }]);
    const tui = start();
    const first = sessionIdOn(await tui.waitFor(GREETING));
    expect(first).toBeDefined();
    await converse(tui, 'remember the blue door', 'Answer in the first session.');

    tui.type('/new');
    tui.press('Enter');
    const second = sessionIdOn(
      await tui.waitUntil((s) => {
        const id = sessionIdOn(s);
        return id !== undefined && id !== first;
      }, 'a new session'),
    );

    tui.type('/sessions');
    const menu = await tui.waitFor("switch to another of this directory's sessions");
    expect(menu).toContain('/sessions');
    tui.press('Enter');
    await tui.waitFor('Sessions of this directory');
    const picker = await tui.waitFor(TUI_PICKER_ARMED);
    expect(picker).toContain('remember the blue door');
    expect(picker).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d/);
    tui.press('Enter');
    // Back in the first session: its greeting, and its conversation replayed below it.
    const back = await tui.waitUntil((s) => sessionIdOn(s) === first, 'the first session again');
    expect(back.slice(back.lastIndexOf('kimi-ts —'))).toContain('Answer in the first session.');
    expect(second).not.toBe(first);
  });

  it('/fork continues in a copy; /undo picks a turn and puts its request back in the editor', async () => {
    await cli.setup([{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Redone answer.' }]);
    const tui = start();
    const original = sessionIdOn(await tui.waitFor(GREETING));
    await converse(tui, 'step one', 'First answer.');
    await converse(tui, 'step two', 'Second answer.');

    tui.type('/fork');
    await tui.waitFor('continue in a copy of this session');
    tui.press('Enter');
    const forked = await tui.waitFor(`forked from session ${original}`);
    expect(sessionIdOn(forked)).not.toBe(original);

    tui.type('/undo');
    await tui.waitFor('go back to before a turn');
    tui.press('Enter');
    await tui.waitFor('Go back to before which turn?');
    const picker = await tui.waitFor(TUI_PICKER_ARMED);
    expect(picker).toContain('1. step one');
    expect(picker).toContain('2. step two');
    tui.press('Enter'); // the last turn is chosen at first
    await tui.waitFor('went back to before turn 2');
    await tui.waitUntil(
      (s) => /│?\s*step two\s*│?\s*$/m.test(s.split('went back')[1] ?? ''),
      'step two in the editor',
    );
    tui.press('Enter');
    await tui.waitFor('Redone answer.');
    // The redone turn's history holds turn 1 but not the undone turn's answer.
    expect(bodyOf(2)).toContain('First answer.');
    expect(bodyOf(2)).not.toContain('Second answer.');
    expect(bodyOf(2)).toContain('step two');
  });

  it('/theme light switches the colours, saves theme = "light" in the config and is kept next time', async () => {
    await cli.setup([]);
    const tui = start();
    await tui.waitFor(TUI_READY);
    // Dark: the editor's frame is the terminal's bright black; light: a grey of the 256 colours.
    expect(tui.screenWithEscapes()).toContain('\x1b[90m');
    expect(tui.screenWithEscapes()).not.toContain('38;5;245');
    tui.type('/theme light');
    tui.press('Enter');
    await tui.waitFor('theme: light, saved in the config');
    await tui.waitUntil(() => tui.screenWithEscapes().includes('38;5;245'), 'the light frame colour');
    const config = await readFile(cli.sandbox.configFile, 'utf8');
    expect(config).toMatch(/^theme = "light"$/m);
    // The rest of the config is as it was: the session still reaches the model server.
    expect(config).toContain(cli.server.baseUrl);

    const again = start();
    await again.waitFor(TUI_READY);
    await again.waitUntil(
      () => again.screenWithEscapes().includes('38;5;245'),
      'the light theme after a restart',
    );
    again.type('/theme nope');
    again.press('Enter');
    await again.waitFor('Unknown theme nope: dark or light.');
  });
});

describe('terminal UI: prompt editor extras', () => {
  it('Ctrl-R searches the work dir’s history: type to filter, Ctrl-R for older, Enter takes it', async () => {
    await cli.setup([{ text: 'A.' }, { text: 'B.' }, { text: 'C.' }, { text: 'Again.' }]);
    const tui = start();
    await tui.waitFor(TUI_READY);
    await converse(tui, 'deploy the staging box', 'A.');
    await converse(tui, 'deploy production now', 'B.');
    await converse(tui, 'write the changelog', 'C.');
    tui.press('C-r');
    await tui.waitFor('(reverse-i-search)');
    tui.type('deploy');
    await tui.waitFor("(reverse-i-search)'deploy': deploy production now");
    tui.press('C-r');
    await tui.waitFor("(reverse-i-search)'deploy': deploy the staging box");
    tui.press('Enter');
    await tui.waitUntil((s) => !s.includes('(reverse-i-search)'), 'the search closed');
    tui.press('Enter');
    await tui.waitFor('Again.');
    expect(bodyOf(3)).toContain('deploy the staging box');

    // Esc leaves the search and keeps what was typed.
    tui.type('draft');
    tui.press('C-r');
    await tui.waitFor('(reverse-i-search)');
    tui.type('zzz');
    await tui.waitFor("'zzz': no match");
    tui.press('Escape');
    await tui.waitUntil((s) => !s.includes('(reverse-i-search)') && s.includes('draft'), 'the draft back');
  });

  it('a long paste shows as a placeholder and the whole text is sent', async () => {
    await cli.setup([{ text: 'Read all of it.' }]);
    const tui = start();
    await tui.waitFor(TUI_READY);
    const lines = Array.from({ length: 42 }, (_, i) => `pasted line ${i + 1}`);
    tui.type('summarise ');
    tui.paste(lines.join('\n'));
    const screen = await tui.waitFor('[paste #1 +42 lines]');
    expect(screen).not.toContain('pasted line 7');
    tui.press('Enter');
    await tui.waitFor('Read all of it.');
    const body = bodyOf(0);
    expect(body).toContain('summarise pasted line 1\\npasted line 2');
    expect(body).toContain('pasted line 42');
  });

  it('a paste never runs as keys: a newline in it does not send, escapes in it are inert', async () => {
    await cli.setup([{ text: 'Fine.' }]);
    const tui = start();
    await tui.waitFor(TUI_READY);
    tui.paste('first\nsecond \x1b[2J\x1b]0;pwned\x07 third');
    await tui.waitFor('second');
    // Nothing was sent by the pasted newline, the title was not set.
    expect(cli.server.requests).toHaveLength(0);
    expect(tui.title()).not.toContain('pwned');
    tui.press('Enter');
    await tui.waitFor('Fine.');
    expect(bodyOf(0)).toContain('first\\nsecond');
  });
});

describe('terminal UI: colours and size', () => {
  it('NO_COLOR renders without any colour codes', async () => {
    await cli.setup([{ text: '# Heading\n\n- item with `code`\n\n```ts\nconst x = 1;\n```\n' }]);
    const tui = start({ env: { NO_COLOR: '1' } });
    await tui.waitFor(TUI_READY);
    await converse(tui, 'show markdown', 'const x = 1;');
    const painted = tui.screenWithEscapes();
    // Any SGR sequence that sets a foreground or background colour (30–38, 40–48, 90–107); 39 and 49
    // only go back to the terminal's own colours.
    const colours = [...painted.matchAll(new RegExp(`${ESC}\\[([0-9;]*)m`, 'g'))]
      .map((m) => m[1] ?? '')
      .filter((params) => params.split(';').some((p) => /^(3[0-8]|4[0-8]|9\d|10\d)$/.test(p)));
    expect(painted).toContain('Heading');
    expect(colours).toEqual([]);
  });

  it('re-flows the conversation when the terminal is resized', async () => {
    const long = Array.from({ length: 15 }, (_, i) => `word${i}`).join(' ');
    await cli.setup([{ text: `${long} END` }]);
    const tui = start({ width: 120, height: 40 });
    await tui.waitFor(TUI_READY);
    await converse(tui, 'say a long line', 'END');
    const wide = tui.screen();
    expect(wide).toMatch(/word0 .*word14 END/);
    tui.resize(60, 40);
    const narrow = await tui.waitUntil(
      (s) => s.split('\n').every((line) => line.length <= 60) && /word14 END/.test(s),
      'the answer wrapped to 60 columns',
    );
    expect(narrow).not.toMatch(/word0 .*word14/);
    tui.resize(120, 40);
    await tui.waitUntil((s) => /word0 .*word14 END/.test(s), 'the answer on one line again');
  });
});

/** Whether the text at `what` is drawn dim (SGR 2), following the attributes from the screen's start. */
function isDimAt(painted: string, what: string): boolean {
  let dim = false;
  const upTo = painted.slice(0, painted.indexOf(what));
  for (const match of upTo.matchAll(new RegExp(`${ESC}\\[([0-9;]*)m`, 'g'))) {
    for (const param of (match[1] || '0').split(';')) {
      if (param === '2') dim = true;
      else if (param === '0' || param === '22') dim = false;
    }
  }
  return dim;
}

function held(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('terminal UI: thinking', () => {
  const thought = Array.from({ length: 8 }, (_, i) => `thought line ${i + 1}`).join('\n');

  it('shows the last lines of thinking, dimmed, while it streams, and folds them when the answer starts', async () => {
    const release = held();
    await cli.setup([{ think: thought, holdAfterThinking: release.promise, text: 'The answer.' }]);
    const tui = start();
    await tui.waitFor(TUI_READY);
    tui.type('think first');
    tui.press('Enter');
    const streaming = await tui.waitFor('thought line 8');
    // Six lines (Kimi CLI's preview): the first two have scrolled out of it.
    expect(streaming).toContain('thought line 3');
    expect(streaming).not.toContain('thought line 2');
    expect(isDimAt(tui.screenWithEscapes(), 'thought line 8')).toBe(true);
    expect(isDimAt(tui.screenWithEscapes(), 'think first')).toBe(false);
    release.resolve();
    const answered = await tui.waitFor('The answer.');
    expect(answered).toContain('∴ thought (8 lines)');
    expect(answered).not.toContain('thought line 8');
  });

  it('with show_thinking_stream = false shows one line while it thinks', async () => {
    const release = held();
    await cli.setup([{ think: thought, holdAfterThinking: release.promise, text: 'Done thinking.' }]);
    const config = await readFile(cli.sandbox.configFile, 'utf8');
    await writeFile(cli.sandbox.configFile, `show_thinking_stream = false\n${config}`);
    const tui = start();
    await tui.waitFor(TUI_READY);
    tui.type('think quietly');
    tui.press('Enter');
    const thinking = await tui.waitFor('∴ thinking…');
    expect(thinking).not.toContain('thought line');
    release.resolve();
    await tui.waitFor('Done thinking.');
    expect(tui.screen()).toContain('∴ thought (8 lines)');
  });
});

describe('terminal UI: start-up', () => {
  it('takes keys from the first frame, before the session is built, and sends them as typed', async () => {
    await cli.setup([{ text: 'Heard you early.' }]);
    const tui = start();
    // Typed as soon as the prompt shows (before that the terminal is not yet in raw mode: a key typed
    // then is the terminal's line editing, for any program). The session may be built or not yet.
    await tui.waitFor(TUI_READY);
    tui.type('typed right away');
    tui.press('Enter');
    await tui.waitFor('Heard you early.');
    expect(bodyOf(0)).toContain('typed right away');
    // Drawn once: the start-up prompt was replaced, not left above the TUI.
    expect(tui.history().match(/starting…/g) ?? []).toHaveLength(0);
  });

  it('a config that cannot be used: the error is shown (no secret in it), exit 1', async () => {
    await cli.setup([]);
    await writeFile(cli.sandbox.configFile, 'default_model = "missing"\napi_key = "sk-do-not-show"\n[oops\n');
    const tui = start();
    expect(await tui.waitForExit()).toBe(1);
    const screen = tui.history();
    expect(screen).toMatch(/config/i);
    expect(screen).not.toContain('sk-do-not-show');
    // That the start-up prompt is erased first is checked on xterm (src/ui/tui/splash.test.ts): tmux
    // does not apply cursor moves written just before a pane's process exits (plain printf shows it).
  });
});
