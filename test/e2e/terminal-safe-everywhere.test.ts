import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gate } from '../support/loopback-server.js';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

/**
 * Text from a stranger (the model, a tool's output, an MCP server, a saved session) that tries to
 * act on the terminal: write the clipboard (OSC 52), plant a link (OSC 8), move the cursor up and
 * erase (CSI), overwrite the line (`\r`), ring the bell, reverse the reading order (bidi), and hide
 * what follows behind a run of Braille blanks.
 */
const HOSTILE =
  'A\x1b]52;c;ZXZpbA==\x07B\x1b]8;;http://evil.example/\x1b\\L\x1b]8;;\x1b\\C\x1b[2A\x1b[2KD\rE\x07F\u202Eg' +
  '\u2800'.repeat(40) +
  'TAIL';
/** The same, as the person must see it: every escape shown, never run. */
const SHOWN =
  'A␛]52;c;ZXZpbA==␇B␛]8;;http://evil.example/␛\\L␛]8;;␛\\C␛[2A␛[2KD␍E␇F⟨U+202E⟩g⟨U+2800 ×40⟩TAIL';

/** A CSI sequence and its final letter (the ESC written as a code, not a literal character). */
const CSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*([A-Za-z])`, 'g');

/** Nothing the terminal would act on: no OSC, BEL, CR, C1 CSI, bidi override or cursor move. */
function expectInert(text: string): void {
  for (const char of ['\x07', '\r', '\u009b', '\u202e', '\x1b]']) expect(text).not.toContain(char);
  // Our own colours (SGR, `m`) may be there; a cursor move or erase from the text may not.
  expect([...text.matchAll(CSI)].map((m) => m[1]).filter((end) => end !== 'm')).toEqual([]);
}

describe('terminal UI: text from strangers reaches the pane only inert', () => {
  it('thinking, the answer, a tool name and a command output', async () => {
    const thought = gate();
    const { server } = await cli.setup(
      [
        {
          think: `Thinking ${HOSTILE}`,
          holdAfterThinking: thought.promise,
          text: `Answer ${HOSTILE}`,
          toolCalls: [
            { id: 'c1', name: 'Ev\x1b[2Jil\u202Etool', args: {} },
            {
              id: 'c2',
              name: 'Shell',
              args: {
                command:
                  "printf 'out\\033]52;c;ZXZpbA==\\007 \\342\\240\\200\\342\\240\\200\\342\\240\\200 end\\n'",
              },
            },
          ],
        },
        { text: 'all done' },
      ],
      { extraToml: 'show_thinking_stream = true' },
    );
    const tui = cli.startTui({ args: ['--yolo'], width: 220, height: 50 });
    await tui.waitFor(TUI_READY);
    tui.type('go');
    tui.press('Enter');
    const thinking = await tui.waitFor('TAIL');
    expect(thinking).toContain(`Thinking ${SHOWN}`);
    thought.open();
    const screen = await tui.waitFor('all done');
    expect(server.requests).toHaveLength(2);
    expect(screen).toContain(`Answer ${SHOWN}`);
    expect(screen).toContain('Ev␛[2Jil⟨U+202E⟩tool');
    expect(screen).toContain('out␛]52;c;ZXZpbA==␇ ⟨U+2800 ×3⟩ end');
    // The greeting was not erased or overwritten, and no escape of the text reached tmux.
    expect(screen).toContain('kimi-ts — session');
    expectInert(tui.screenWithEscapes());
  });

  it('a file name in the @ completion list: a hostile one is not offered, the others are', async () => {
    await cli.setup([{ text: 'ok' }]);
    await writeFile(join(cli.sandbox.workDir, 'evil\u202Etxt.exe\x1b]52;c;ZXZpbA==\x07\x1b[2J.txt'), '');
    await writeFile(join(cli.sandbox.workDir, 'evil-plain.txt'), '');
    const tui = cli.startTui({ width: 160 });
    await tui.waitFor(TUI_READY);
    tui.type('look at @evil');
    await tui.waitFor('evil-plain.txt');
    const screen = tui.screen();
    expect(screen).not.toContain('exe');
    // Nothing cleared the screen: the greeting is still there.
    expect(screen).toContain('kimi-ts — session');
    expectInert(tui.screenWithEscapes());
  });

  it("a saved session's title in the /sessions picker", async () => {
    const { sandbox } = await cli.setup([{ text: 'first' }, { text: 'second' }]);
    const title = 'T\x1b]52;c;ZXZpbA==\x07\u202Ex\u2800\u2800\u2800\u2800y';
    expect((await sandbox.run(['--print', '-p', title])).code).toBe(0);
    const tui = cli.startTui({ width: 160 });
    await tui.waitFor(TUI_READY);
    tui.type('/sessions');
    tui.press('Enter');
    const picker = await tui.waitFor('Sessions of this directory');
    expect(picker).toContain('T␛]52;c;ZXZpbA==␇⟨U+202E⟩x⟨U+2800 ×4⟩y');
    expectInert(tui.screenWithEscapes());
  });
});

describe('line shell: text from strangers reaches the terminal only inert', () => {
  it('the answer and a tool name', async () => {
    await cli.setup([
      { text: `Answer ${HOSTILE}`, toolCalls: [{ id: 'c1', name: 'Ev\x1b[2Jil\u202Etool', args: {} }] },
      { text: 'all done' },
    ]);
    const shell = cli.startTui({ ui: 'line', width: 220 });
    await shell.waitFor('Type a request');
    shell.type('go');
    shell.press('Enter');
    const screen = await shell.waitFor('all done');
    expect(screen).toContain(`Answer ${SHOWN}`);
    expect(screen).toContain('Ev␛[2Jil⟨U+202E⟩tool');
    expectInert(shell.screenWithEscapes());
  });
});

describe('print mode: stdout and stderr carry text from strangers only inert', () => {
  it('the answer, a tool name in progress and its error, and an MCP server name in a warning', async () => {
    const { sandbox } = await cli.setup([
      { text: `Answer ${HOSTILE}`, toolCalls: [{ id: 'c1', name: 'Ev\x1b[2Jil\u202Etool', args: {} }] },
      { text: `Done ${HOSTILE}` },
    ]);
    const mcp = JSON.stringify({
      mcpServers: {
        'srv\x1b]0;pwned\x07\u202E': { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      },
    });
    const result = await sandbox.run(['--print', '-p', 'go', '--mcp-config', mcp]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Answer ${SHOWN}`);
    expect(result.stdout).toContain(`Done ${SHOWN}`);
    expect(result.stderr).toContain('• Ev␛[2Jil⟨U+202E⟩tool');
    expect(result.stderr).toContain('✗ Tool `Ev␛[2Jil⟨U+202E⟩tool` not found');
    expect(result.stderr).toContain('srv␛]0;pwned␇⟨U+202E⟩');
    expectInert(result.stdout);
    expectInert(result.stderr);
  });

  it("`kimi-ts sessions` lists a session's title inert", async () => {
    const { sandbox } = await cli.setup([{ text: 'ok' }]);
    expect((await sandbox.run(['--print', '-p', `Title ${HOSTILE}`])).code).toBe(0);
    const listed = await sandbox.run(['sessions']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Title A␛]52;c;ZXZpbA==␇');
    expectInert(listed.stdout);
  });
});
