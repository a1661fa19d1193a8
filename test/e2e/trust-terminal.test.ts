import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gate, LoopbackServer, startSSE, writeSSE } from '../support/loopback-server.js';
import { CLI, CLI_NODE } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { TmuxTerminal } from '../support/tmux.js';

const cli = useScriptedCli();

/** The line shell of the built CLI in a real terminal, pointed at `baseUrl`. */
async function startShell(baseUrl: string): Promise<TmuxTerminal> {
  const sandbox = await cli.createSandbox({ baseUrl });
  const terminal = await TmuxTerminal.start({
    argv: [CLI_NODE, CLI, '--ui', 'line', '--config-file', sandbox.configFile, '-w', sandbox.workDir],
    env: sandbox.env(),
    cwd: sandbox.workDir,
  });
  cli.defer(() => terminal.close());
  await terminal.waitFor('Type a request');
  return terminal;
}

describe('hole 3: what the terminal shows is what will run', () => {
  it('shows the escapes of a spoofing command and of streamed text instead of running them', async () => {
    const spoof = 'touch EVIL.txt; : \r\x1b[2K\x1b[1A\x1b[2Kls -la';
    const server = await cli.startServer([
      {
        text: 'Listing: \x1b[2J\x1b]0;pwned\x07\u202Eevil\u202C done\n',
        toolCalls: [{ id: 's1', name: 'Shell', args: { command: spoof } }],
      },
    ]);
    const tty = await startShell(server.baseUrl);
    await tty.type('list the files');
    await tty.press('Enter');
    const screen = await tty.waitFor(/^approve\?/m);
    expect(screen).toContain('Allow run command? Run command `touch EVIL.txt; : ␍␛[2K␛[1A␛[2Kls -la`');
    expect(screen).toContain('Listing: ␛[2J␛]0;pwned␇⟨U+202E⟩evil⟨U+202C⟩ done');
    await tty.type('n');
    await tty.press('Enter');
    await tty.waitFor(/approve\? n\n[\s\S]*^›/m);
    expect(existsSync(join(cli.sandbox.workDir, 'EVIL.txt'))).toBe(false);
  });
});

describe("print mode's text output", () => {
  it('shows control characters of the answer instead of passing them to the terminal', async () => {
    const { sandbox } = await cli.setup([{ text: 'ok\r\x1b[2Kspoofed \x1b]52;c;ZXZpbA==\x07\u202Edone' }]);
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ok␍␛[2Kspoofed ␛]52;c;ZXZpbA==␇⟨U+202E⟩done');
    expect(result.stdout).not.toContain('\x1b');
    expect(result.stdout).not.toContain('\r');
  });
});

/** Streams `text`, waits for `release`, then streams one Shell call (Chat Completions SSE). */
function textThenHeldShellCall(text: string, release: Promise<void>, command: string) {
  return async (_req: unknown, res: ServerResponse): Promise<void> => {
    const base = { id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 1, model: 'e2e-model' };
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    startSSE(res);
    writeSSE(res, chunk({ role: 'assistant', content: text }));
    await release;
    const args = JSON.stringify({ command });
    writeSSE(
      res,
      chunk({
        tool_calls: [{ index: 0, id: 'h1', type: 'function', function: { name: 'Shell', arguments: args } }],
      }),
    );
    writeSSE(res, chunk({}, 'tool_calls'));
    writeSSE(res, '[DONE]');
    res.end();
  };
}

function answerText(text: string) {
  return (_req: unknown, res: ServerResponse): void => {
    startSSE(res);
    writeSSE(res, {
      id: 'chatcmpl-text',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'e2e-model',
      choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    });
    writeSSE(res, '[DONE]');
    res.end();
  };
}

describe('hole 4: type-ahead never answers an approval', () => {
  it('sets lines typed during the stream aside for the next prompt and waits for an explicit choice', async () => {
    const server = await LoopbackServer.start();
    cli.defer(() => server.close());
    const release = gate();
    server.enqueue(
      textThenHeldShellCall('Thinking it over…', release.promise, 'touch TYPED_AHEAD.txt'),
      answerText('Got your next request.'),
      answerText('Got the half-typed one.'),
    );
    const tty = await startShell(`${server.url}/v1`);
    await tty.type('do the thing');
    await tty.press('Enter');
    await tty.waitFor('Thinking it over…');
    // Typed while the model streams, before any question: "y" and a bare Enter (once "yes").
    await tty.type('y');
    await tty.press('Enter');
    await tty.press('Enter');
    await tty.waitFor(/Thinking it over…y\n/);
    // And half a line, not yet sent.
    await tty.type('half-typed');
    await tty.waitFor('half-typed');
    release.open();

    const asking = await tty.waitFor(/^approve\?/m);
    // The half-typed text was taken off the line while the question waits.
    expect(asking).not.toMatch(/^approve\?.*half-typed/m);
    expect(existsSync(join(cli.sandbox.workDir, 'TYPED_AHEAD.txt'))).toBe(false);
    // A bare Enter typed now does not answer either: it asks for a choice.
    await tty.press('Enter');
    await tty.waitFor('(type 1, 2, 3 or 4 and press Enter)');
    await tty.type('n');
    await tty.press('Enter');

    // The typed-ahead "y" was kept: it became the next request.
    await tty.waitFor('Got your next request.');
    expect(existsSync(join(cli.sandbox.workDir, 'TYPED_AHEAD.txt'))).toBe(false);
    const lastRequest = server.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(lastRequest.messages.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(lastRequest.messages.at(-1)?.content)).toBe('"y"');
    // The half-typed line is back on the prompt, to finish or send.
    await tty.waitFor(/^› half-typed/m);
    await tty.press('Enter');
    await tty.waitFor('Got the half-typed one.');
    const third = server.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(third.messages.at(-1)?.content)).toBe('"half-typed"');
  });
});
