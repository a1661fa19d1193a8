import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { onlySessionDir } from '../support/session-files.js';

const cli = useScriptedCli();

/** Every wire.jsonl message type of the (only) session, in order. */
async function wireTypes(): Promise<string[]> {
  const text = await readFile(join(await onlySessionDir(cli.sandbox.home), 'wire.jsonl'), 'utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => (JSON.parse(line) as { message: { type: string } }).message.type);
}

describe('print mode', () => {
  it('prints the answer and exits 0', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'Hello there.' }]);
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Hello there.\n');
    const body = server.requests[0]?.body as {
      messages: { role: string; content: unknown }[];
      stream: boolean;
    };
    expect(body.stream).toBe(true);
    expect(body.messages.at(-1)).toMatchObject({ role: 'user', content: 'hi' });
    expect(body.messages[0]?.role).toBe('system');
  });

  it('reads the prompt from stdin and writes stream-json', async () => {
    const { sandbox } = await cli.setup([{ text: 'From stdin.' }]);
    const result = await sandbox.run(['--print', '--output-format', 'stream-json'], {
      input: 'question on stdin',
    });
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([{ role: 'assistant', content: 'From stdin.' }]);
  });

  it('runs one turn per user line of stream-json input', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'one' }, { text: 'two' }]);
    const input = `${JSON.stringify({ role: 'user', content: 'first' })}\n${JSON.stringify({ role: 'assistant', content: 'x' })}\n${JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'second' }] })}\n`;
    const result = await sandbox.run(
      ['--print', '--input-format', 'stream-json', '--output-format', 'stream-json'],
      { input },
    );
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).content),
    ).toEqual(['one', 'two']);
    expect(result.stderr).toContain('Ignoring a assistant message');
    expect(server.requests).toHaveLength(2);
  });

  it('--quiet prints only the final message', async () => {
    const { sandbox } = await cli.setup([{ text: 'The final answer.' }]);
    const result = await sandbox.run(['--quiet', '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('The final answer.\n');
  });

  it('retries a 429 and succeeds (StepRetry recorded)', async () => {
    const { sandbox } = await cli.setup([
      { status: 429, headers: { 'retry-after': '0' } },
      { text: 'after retry' },
    ]);
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('after retry');
    expect(await wireTypes()).toContain('StepRetry');
  });

  it('exits 75 when every attempt is rate limited', async () => {
    const { server, sandbox } = await cli.setup([{ status: 429 }, { status: 429 }, { status: 429 }]);
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(75);
    expect(result.stderr).toMatch(/429/);
    expect(server.requests).toHaveLength(3);
  });

  it('exits 1 on 401 without leaking the API key', async () => {
    const { server, sandbox } = await cli.setup([{ status: 401 }]);
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/401/);
    expect(result.stdout + result.stderr).not.toContain('sk-e2e-test-key');
    expect(server.requests).toHaveLength(1);
  });

  it('retries empty and think-only answers', async () => {
    const { server, sandbox } = await cli.setup([
      {},
      { think: 'hmm, only thinking' },
      { text: 'finally visible' },
    ]);
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('finally visible');
    expect(server.requests).toHaveLength(3);
  });

  it('stops at max steps with exit 1', async () => {
    const call = (id: string) => ({ toolCalls: [{ id, name: 'NoSuchTool', args: { n: id } }] });
    const { sandbox } = await cli.setup([call('a'), call('b'), call('c')]);
    const result = await sandbox.run(['--print', '-p', 'loop', '--max-steps-per-turn', '2']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Max number of steps reached: 2/);
  });

  it('says how to configure a model when none is configured', async () => {
    const { server, sandbox } = await cli.setup([]);
    const result = await sandbox.run(['--print', '-p', 'hi', '-w', sandbox.workDir], { bare: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('LLM not set');
    expect(result.stderr).toContain('KIMI_API_KEY');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses to combine --config and --config-file', async () => {
    const { sandbox } = await cli.setup([]);
    const result = await sandbox.run(['--print', '-p', 'hi', '--config', '{}']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Cannot combine --config and --config-file');
  });

  it('compacts when the context window is small', async () => {
    const { server, sandbox } = await cli.setup(
      [
        { text: 'first answer '.repeat(20), usage: { prompt_tokens: 500, completion_tokens: 50 } },
        { text: 'second answer', usage: { prompt_tokens: 3000, completion_tokens: 50 } },
        { text: '<current_focus>compacted summary</current_focus>' },
        { text: 'third answer' },
      ],
      { maxContextSize: 4000, extraToml: '[loop_control]\nreserved_context_size = 1000\n' },
    );
    expect((await sandbox.run(['--print', '-p', 'one'])).code).toBe(0);
    expect((await sandbox.run(['--print', '-C', '-p', 'two'])).code).toBe(0);
    const third = await sandbox.run(['--print', '-C', '-p', 'three']);
    expect(third.code).toBe(0);
    expect(third.stdout).toContain('third answer');
    const types = await wireTypes();
    expect(types).toContain('CompactionBegin');
    expect(types).toContain('CompactionEnd');
    const last = server.requests.at(-1)?.body as { messages: { content: unknown }[] };
    expect(JSON.stringify(last.messages)).toContain('compacted summary');
  });
});

describe('D-Mail', () => {
  it('reverts the context to a checkpoint and hands the message to the past', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'd1',
            name: 'SendDMail',
            args: { message: 'the build needs --legacy flag', checkpoint_id: 1 },
          },
        ],
      },
      { text: 'Done, using what my future self told me.' },
    ]);
    const { writeFile } = await import('node:fs/promises');
    const agentFile = join(sandbox.root, 'okabe.yaml');
    await writeFile(
      agentFile,
      'version: 1\nagent:\n  extend: default\n  name: okabe\n  tools:\n    - "kimi-ts/tools/dmail/send-dmail:SendDMail"\n',
    );
    const result = await sandbox.run(['--print', '-p', 'build it', '--agent-file', agentFile]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('future self');
    const second = JSON.stringify(server.requests[1]?.body);
    expect(second).toContain('the build needs --legacy flag');
    expect(second).toContain('CHECKPOINT 0');
    // The step that sent the D-Mail was undone: its tool call is not in the history any more.
    expect(second).not.toContain('"id":"d1"');
    expect(second).toContain('build it');
  });
});

describe('MCP in print mode', () => {
  it('calls a tool of a real MCP server (server-everything over stdio)', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'm1', name: 'echo', args: { message: 'hello from the model' } }] },
      { text: 'The server echoed it.' },
    ]);
    const everything = join(
      import.meta.dirname,
      '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    );
    const mcp = JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
    });
    const result = await sandbox.run([
      '--print',
      '--output-format',
      'stream-json',
      '-p',
      'echo please',
      '--mcp-config',
      mcp,
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role: string; content: unknown; tool_call_id?: string });
    const tool = lines.find((l) => l.role === 'tool');
    expect(tool?.tool_call_id).toBe('m1');
    expect(JSON.stringify(tool?.content)).toContain('hello from the model');
    expect(lines.at(-1)).toEqual({ role: 'assistant', content: 'The server echoed it.' });
    // The model was told about the MCP tool.
    const body = server.requests[0]?.body as { tools?: { function: { name: string } }[] } | undefined;
    const tools = body?.tools ?? [];
    expect(tools.map((t) => t.function.name)).toContain('echo');
  });
});

describe('real tools', () => {
  it('runs a multi-step session that reads and writes real files', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 'version.txt' } }] },
      {
        toolCalls: [
          {
            id: 'w1',
            name: 'StrReplaceFile',
            args: { path: 'version.txt', edit: { old: '1.0', new: '2.0' } },
          },
        ],
      },
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'cat version.txt' } }] },
      { text: 'Version bumped to 2.0.' },
    ]);
    const { readFile: read, writeFile } = await import('node:fs/promises');
    await writeFile(join(sandbox.workDir, 'version.txt'), 'version = 1.0\n');
    const result = await sandbox.run([
      '--print',
      '--output-format',
      'stream-json',
      '-p',
      'bump the version to 2.0',
    ]);
    expect(result.code).toBe(0);
    expect(await read(join(sandbox.workDir, 'version.txt'), 'utf8')).toBe('version = 2.0\n');
    const tools = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role: string; content: unknown })
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.stringify(m.content));
    expect(tools[0]).toContain('version = 1.0');
    expect(tools[1]).toContain('File successfully edited');
    expect(tools[2]).toContain('version = 2.0');
    // The model saw the tool results in the following requests.
    expect(JSON.stringify(server.requests[3]?.body)).toContain('version = 2.0');
  });

  it('never runs a side-effecting call from a stream that was cut', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          { id: 'x1', name: 'Shell', args: { command: 'touch side-effect-happened' } },
          { id: 'x2', name: 'Glob', args: { pattern: '*.txt' } },
        ],
        cutAfterToolCalls: true,
      },
      { text: 'Retried cleanly, nothing to do.' },
    ]);
    const result = await sandbox.run(['--print', '-p', 'do something']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Retried cleanly');
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(sandbox.workDir, 'side-effect-happened'))).toBe(false);
    // The cut answer was asked again (connection recovery). Both calls were complete before the
    // cut, so both were dispatched: the read-only Glob ran, the Shell call got "not run".
    expect(server.requests).toHaveLength(2);
    expect((await wireTypes()).filter((t) => t === 'ToolResult')).toHaveLength(2);
  });
});

describe('background tasks in print mode', () => {
  it('waits for a background task and lets the model process its result', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'bg',
            name: 'Shell',
            args: { command: 'echo background-result-42', run_in_background: true, description: 'echo job' },
          },
        ],
      },
      { text: 'Started it; waiting for the result.' },
      { text: 'The job printed background-result-42.' },
    ]);
    const result = await sandbox.run(['--print', '-p', 'run the job in the background']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The job printed background-result-42.');
    expect(server.requests).toHaveLength(3);
    // The third request carries the task's notification (with its output) and the follow-up reminder.
    const third = JSON.stringify(server.requests[2]?.body);
    expect(third).toContain('<notification');
    expect(third).toContain('background-result-42');
    expect(third).toContain('Background tasks have completed');
  });
});

describe('custom tools', () => {
  it('loads the example custom tool from an agent spec and runs it', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'wc', name: 'WordCount', args: { path: 'notes.txt' } }] },
      { text: 'Counted.' },
    ]);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(sandbox.workDir, 'notes.txt'), 'one two three\nfour\n');
    const agentFile = join(import.meta.dirname, '../../examples/custom-tool/agent.yaml');
    const result = await sandbox.run([
      '--print',
      '--output-format',
      'stream-json',
      '-p',
      'count',
      '--agent-file',
      agentFile,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('4 words, 2 lines');
    const body = server.requests[0]?.body as
      | { tools?: { function: { name: string; description: string } }[] }
      | undefined;
    const wordCount = body?.tools?.find((t) => t.function.name === 'WordCount');
    expect(wordCount?.function.description).toContain(sandbox.workDir);
  });
});

describe('hooks from the config', () => {
  it('a UserPromptSubmit hook blocks the prompt and a PreToolUse hook blocks a tool call', async () => {
    const { writeFile, chmod } = await import('node:fs/promises');
    const server = await cli.startServer([
      { toolCalls: [{ id: 'h1', name: 'Shell', args: { command: 'touch should-not-exist' } }] },
      { text: 'The hook stopped me.' },
    ]);
    const root = await import('node:os').then((os) => os.tmpdir());
    const hookDir = await import('node:fs/promises').then((fs) => fs.mkdtemp(join(root, 'kimi-ts-hooks-')));
    const blockPrompt = join(hookDir, 'block-prompt.sh');
    await writeFile(blockPrompt, '#!/bin/sh\necho "secrets are not allowed in prompts" >&2\nexit 2\n');
    const blockShell = join(hookDir, 'block-shell.sh');
    await writeFile(
      blockShell,
      '#!/bin/sh\nprintf \'{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no shell today"}}\'\n',
    );
    await chmod(blockPrompt, 0o755);
    await chmod(blockShell, 0o755);
    const sandbox = await cli.createSandbox({
      baseUrl: server.baseUrl,
      extraToml: [
        '[[hooks]]',
        'event = "UserPromptSubmit"',
        'matcher = "password"',
        `command = "${blockPrompt}"`,
        '',
        '[[hooks]]',
        'event = "PreToolUse"',
        'matcher = "^Shell$"',
        `command = "${blockShell}"`,
      ].join('\n'),
    });
    const blocked = await sandbox.run(['--print', '-p', 'my password is hunter2']);
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toContain('secrets are not allowed in prompts');
    expect(server.requests).toHaveLength(0);

    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'make a file']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('no shell today');
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(sandbox.workDir, 'should-not-exist'))).toBe(false);
    await import('node:fs/promises').then((fs) => fs.rm(hookDir, { recursive: true, force: true }));
  });
});

describe('/init', () => {
  it('writes AGENTS.md in a context of its own and keeps only the result in the session', async () => {
    const agentsMd = '# Agents\n\nBuild with `make`, test with `make test`.\n';
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'AGENTS.md', content: agentsMd } }] },
      { text: 'Wrote AGENTS.md.' },
      { text: 'Run make test.' },
    ]);
    const init = await sandbox.run(['--print', '-p', '/init']);
    expect(init.code).toBe(0);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(join(sandbox.workDir, 'AGENTS.md'), 'utf8')).toBe(agentsMd);
    expect(init.stdout).toContain('AGENTS.md is written and now part of this session.');

    const next = await sandbox.run(['--print', '-C', '-p', 'how do I test?']);
    expect(next.code).toBe(0);
    const history = JSON.stringify(server.requests[2]?.body);
    expect(history).toContain('The user ran /init: AGENTS.md at the root of the working directory now reads');
    expect(history).toContain('Build with `make`');
    // The exploration itself stayed in the scratch context.
    expect(history).not.toContain('Study this project');
    expect(history).not.toContain('Wrote AGENTS.md.');
  });
});

describe('the Ralph loop', () => {
  it('runs the prompt again until the model chooses STOP (--max-ralph-iterations), each run a turn of its own', async () => {
    const { server, sandbox } = await cli.setup([
      { text: 'Fixed one test.' },
      { text: 'Fixed another. <choice>CONTINUE</choice>' },
      { text: 'All green. <choice>STOP</choice>' },
    ]);
    const result = await sandbox.run(['--print', '--max-ralph-iterations', '5', '-p', 'make the tests pass']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('All green.');
    expect(server.requests).toHaveLength(3);
    const body = server.requests[1]?.body as { messages: { role: string; content: unknown }[] } | undefined;
    const lastUser = body?.messages.filter((m) => m.role === 'user').at(-1);
    expect(JSON.stringify(lastUser?.content)).toContain(
      'make the tests pass. (You are running in an automated loop where the same prompt is fed repeatedly.',
    );
    // The outer turn holds three inner ones.
    const types = await wireTypes();
    expect(types.filter((t) => t === 'TurnBegin')).toHaveLength(4);
    expect(types.filter((t) => t === 'TurnEnd')).toHaveLength(4);
  });

  it('takes max_ralph_iterations from the config, and refuses a bad flag', async () => {
    const { server, sandbox } = await cli.setup(
      [{ text: 'First.' }, { text: 'Again, not sure.' }, { text: 'never asked' }],
      {
        extraToml: '[loop_control]\nmax_ralph_iterations = 1\n',
      },
    );
    const result = await sandbox.run(['--print', '-p', 'go']);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    const bad = await sandbox.run(['--print', '--max-ralph-iterations', '-2', '-p', 'go']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('must be an integer ≥ -1');
  });
});

describe('/btw', () => {
  it('answers a side question from the conversation, refuses tools, and leaves the context as it was', async () => {
    const { server, sandbox } = await cli.setup([
      { text: 'Noted.' },
      { toolCalls: [{ id: 'b1', name: 'Shell', args: { command: 'touch should-not-exist' } }] },
      { text: 'It was banana.' },
      { text: 'Next answer.' },
    ]);
    await sandbox.run(['--print', '-p', 'the secret word is banana']);
    const aside = await sandbox.run(['-C', '--print', '-p', '/btw what was the secret word?']);
    expect(aside.code).toBe(0);
    expect(aside.stdout).toContain('It was banana.');
    const askAgain = JSON.stringify(server.requests[2]?.body);
    expect(askAgain).toContain('the secret word is banana');
    expect(askAgain).toContain('Tools cannot be used for a side question');
    expect(existsSync(join(sandbox.workDir, 'should-not-exist'))).toBe(false);
    const next = await sandbox.run(['-C', '--print', '-p', 'carry on']);
    expect(next.stdout).toContain('Next answer.');
    const later = JSON.stringify(server.requests[3]?.body);
    expect(later).toContain('the secret word is banana');
    expect(later).not.toContain('what was the secret word');
    expect(later).not.toContain('It was banana.');
    expect((await wireTypes()).filter((t) => t.startsWith('Btw'))).toEqual(['BtwBegin', 'BtwEnd']);
  });
});

// The bundle keeps zod's English messages only (scripts/bundle.mjs): arguments of the wrong type
// still come back to the model in words it can act on.
it('tells the model in English what was wrong with its tool arguments', async () => {
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 5 } }] },
    { text: 'Done.' },
  ]);
  const result = await sandbox.run(['--print', '-p', 'read it']);
  expect(result.code, result.stderr).toBe(0);
  const body = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
  const toolResult = JSON.stringify(body.messages.filter((m) => m.role === 'tool'));
  expect(toolResult).toContain('expected string, received number');
});
