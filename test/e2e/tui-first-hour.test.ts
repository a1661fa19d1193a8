import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { TUI_PANEL_ARMED, TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

/** What a first-time user of the terminal UI tripped on (issue 27). */
const cli = useTuiCli();

/** A git repository in `dir`, so `git status` has something to say. */
async function execGitInit(dir: string): Promise<void> {
  await promisify(execFile)('git', ['init', '-q'], { cwd: dir });
}

/** The status line: the last line of the screen with text. */
function statusLine(screen: string): string {
  return (
    screen
      .split('\n')
      .filter((line) => line.trim())
      .at(-1) ?? ''
  );
}

describe('terminal UI: progress', () => {
  it('shows a spinner, the elapsed time and the tokens streamed so far while a turn runs', async () => {
    const thought = deferred();
    cli.defer(() => thought.resolve());
    await cli.setup([
      {
        think: 'x'.repeat(400),
        holdAfterThinking: thought.promise,
        text: 'Done thinking.',
        usage: { prompt_tokens: 1500, completion_tokens: 7 },
      },
    ]);
    const tui = cli.startTui({ args: ['--thinking'] });
    await tui.waitFor(TUI_READY);
    tui.type('think hard');
    tui.press('Enter');

    // 400 characters of thinking streamed: about 100 tokens, before any usage came back.
    const running = await tui.waitUntil(
      (screen) => /↓~100\b/.test(statusLine(screen)),
      'the live token estimate',
    );
    expect(statusLine(running)).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 0:0\d working… \(Esc cancels\)/);
    // The clock moves.
    await tui.waitUntil((screen) => /0:0[2-9] working/.test(statusLine(screen)), 'two seconds elapsed');

    thought.resolve();
    const idle = await tui.waitFor('Done thinking.');
    await tui.waitForIdle();
    // The step's real usage replaces the estimate; the spinner and clock go.
    const after = statusLine(tui.screen());
    expect(after).toContain('↑1.5k ↓7');
    expect(after).not.toMatch(/0:\d\d/);
    expect(idle).toBeTruthy();
  });

  it('names the model when environment variables alone define it', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'Hello from the env model.' }]);
    await writeFile(sandbox.configFile, '');
    const tui = cli.startTui({
      env: {
        KIMI_BASE_URL: server.baseUrl,
        KIMI_MODEL_NAME: 'env-only-model',
        KIMI_API_KEY: 'sk-env-test',
        KIMI_TS_PROVIDER_TYPE: 'openai_legacy',
      },
    });
    await tui.waitFor(TUI_READY);
    await tui.waitUntil((screen) => /^env-only-model · /.test(statusLine(screen)), 'the model first');
    tui.type('hi');
    tui.press('Enter');
    await tui.waitFor('Hello from the env model.');
  });
});

describe('terminal UI: state a newcomer trips on', () => {
  it('Ctrl-C during a turn cancels it and clears the draft typed meanwhile; Esc cancels and keeps it', async () => {
    const first = deferred();
    const second = deferred();
    cli.defer(() => first.resolve());
    cli.defer(() => second.resolve());
    const tui = await cli.startWith([
      { text: 'First.', holdUntil: first.promise },
      { text: 'Second.', holdUntil: second.promise },
    ]);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor('First.');
    tui.type('a draft I changed my mind about');
    await tui.waitFor('a draft I changed my mind about');
    tui.press('C-c');
    await tui.waitFor('(interrupted)');
    await tui.waitForIdle();
    await tui.waitUntil((screen) => !screen.includes('a draft I changed'), 'the draft gone');

    tui.type('again');
    tui.press('Enter');
    await tui.waitFor('Second.');
    tui.type('a draft to keep');
    await tui.waitFor('a draft to keep');
    tui.press('Escape');
    await tui.waitUntil((screen) => screen.split('(interrupted)').length === 3, 'the second interruption');
    await tui.waitForIdle();
    expect(tui.screen()).toContain('a draft to keep');
  });

  it('the context size follows /model at once, before any turn with the new model', async () => {
    await cli.setup([{ text: 'First.', usage: { prompt_tokens: 5000, completion_tokens: 10 } }], {
      extraToml: [
        '[models.big]',
        'provider = "local"',
        'model = "big-model"',
        'max_context_size = 200000',
        '',
      ].join('\n'),
    });
    const tui = cli.startTui();
    await tui.waitFor(TUI_READY);
    tui.type('hello');
    tui.press('Enter');
    await tui.waitFor('First.');
    await tui.waitUntil((screen) => statusLine(screen).includes('/100.0k)'), 'the context of e2e');
    const before = statusLine(tui.screen());
    const tokens = /context \d+% \(([\d.]+k?)\/100\.0k\)/.exec(before)?.[1];
    expect(tokens).toBeTruthy();
    tui.type('/model big');
    tui.press('Enter');
    const after = await tui.waitUntil((screen) => /^big · /.test(statusLine(screen)), 'the switch');
    expect(statusLine(after)).toContain(`(${tokens}/200.0k)`);
  });

  it('/permissions lists a command prefix just approved for the session', async () => {
    const tui = await cli.startWith([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'git status --short' } }] },
      { text: 'Checked.' },
    ]);
    await execGitInit(cli.sandbox.workDir);
    tui.type('check git');
    tui.press('Enter');
    await tui.waitFor(TUI_PANEL_ARMED);
    tui.press('2');
    const scopes = await tui.waitFor('Commands starting with');
    const line = scopes.split('\n').find((l) => l.includes('Commands starting with')) ?? '';
    const number = /(\d)\./.exec(line)?.[1];
    expect(number).toBeTruthy();
    tui.press(number ?? '2');
    await tui.waitFor('Checked.');
    await tui.waitForIdle();
    tui.type('/permissions');
    tui.press('Enter');
    const listed = await tui.waitFor('Approved for this session:');
    const after = listed.slice(listed.indexOf('Approved for this session:'));
    expect(after).toMatch(/Shell commands starting with `?git status`? \(session\)/);
    expect(after).not.toMatch(/Approved for this session:\s*\n\s*\(nothing\)/);
  });

  it('/help lists the TUI’s own commands with the session’s', async () => {
    const tui = await cli.startWith([]);
    tui.type('/help');
    tui.press('Enter');
    // The TUI's part comes after the session's, once that turn ended; the whole list may scroll.
    await tui.waitFor('Keys: Enter sends', { inHistory: true });
    const help = tui.history();
    expect(help).toContain('/compact');
    expect(help.indexOf('In this terminal UI:')).toBeGreaterThan(help.indexOf('/compact'));
    for (const name of [
      '/new',
      '/sessions',
      '/fork',
      '/undo',
      '/theme',
      '/model',
      '/rewind',
      '/editor',
      '/exit',
    ])
      expect(help).toContain(name);
  });

  it('on exit: no "press Ctrl-C again" left on the screen, and a line saying how to resume', async () => {
    const tui = await cli.startWith([{ text: 'Said hello.' }, { text: 'Resumed.' }]);
    tui.type('hello');
    tui.press('Enter');
    await tui.waitFor('Said hello.');
    await tui.waitForIdle();
    tui.press('C-c');
    await tui.waitFor('press Ctrl-C again');
    tui.press('C-c');
    expect(await tui.waitForExit()).toBe(0);
    const screen = tui.screen();
    expect(screen).not.toContain('press Ctrl-C again');
    const id = /kimi-ts -S ([0-9a-f-]{36})/.exec(screen)?.[1];
    expect(id).toBeTruthy();
    const resumed = await cli.sandbox.run(['-S', id ?? '', '--print', '-p', 'again']);
    expect(resumed.stdout).toContain('Resumed.');
    // The same session: the model sees the first prompt again.
    expect(JSON.stringify(cli.server.requests.at(-1)?.body)).toContain('hello');
  });
});
