import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

/** What a first-time user of the terminal UI tripped on (issue 27). */
const cli = useTuiCli();

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
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
