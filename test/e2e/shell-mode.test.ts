import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workDirKey } from '../../src/session/work-dir-key.js';
import { BACKGROUND_COMMAND, backgroundAgentScenario } from '../support/background-agent-scenario.js';
import { waitForProcess } from '../support/processes.js';
import { liveCli } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const scripted = useScriptedCli();

describe('interactive shell (line mode)', () => {
  it('runs a turn per line and asks before side effects', async () => {
    const { server, sandbox } = await scripted.setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'touch approved.txt' } }] },
      { text: 'Created it.' },
      { toolCalls: [{ id: 's2', name: 'Shell', args: { command: 'touch rejected.txt' } }] },
    ]);
    const result = await sandbox.run([], {
      input: 'make the first file\ny\nmake the second file\nn\n/exit\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('• Shell touch approved.txt');
    expect(result.stdout).toContain('Allow run command? Run command `touch approved.txt`');
    expect(result.stdout).toContain('Created it.');
    expect(existsSync(join(sandbox.workDir, 'approved.txt'))).toBe(true);
    // The rejection ends the turn: no third model call, no file.
    expect(existsSync(join(sandbox.workDir, 'rejected.txt'))).toBe(false);
    expect(server.requests).toHaveLength(3);
  });

  it('passes rejection feedback to the model', async () => {
    const { server, sandbox } = await scripted.setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'rm -rf build' } }] },
      { text: 'Understood, keeping the build folder.' },
    ]);
    const result = await sandbox.run([], { input: 'clean up\nkeep the build folder please\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Understood, keeping the build folder.');
    expect(JSON.stringify(server.requests[1]?.body)).toContain('keep the build folder please');
  });

  it('asks at once when a background agent needs approval while the shell waits for input', async () => {
    const scenario = await backgroundAgentScenario();
    try {
      const cli = liveCli(scenario.sandbox.spawn([]));

      cli.type('start it\n');
      await cli.waitFor('Started it.');
      scenario.releaseWorker();
      await cli.waitFor('approve? ');
      expect(cli.stdout).toContain('Background agent (coder: Background command) asks:');
      expect(cli.stdout).toContain(`Run command \`${BACKGROUND_COMMAND}\``);
      cli.type('y\n');

      scenario.pushWaitForTask();
      cli.type('how did it go?\n');
      await cli.waitFor('Read it.');
      expect(await cli.end('/exit\n')).toBe(0);
      const taskOutput = JSON.stringify(scenario.root.requests.at(-1)?.body);
      expect(taskOutput).toContain('status: completed');
      expect(taskOutput).toContain('Report: ran the command.');
    } finally {
      await scenario.close();
    }
  });
  it("/model lists the config's models and switches the session to another one", async () => {
    const { server, sandbox } = await scripted.setup(
      [{ text: 'From the other model.' }, { text: 'Still the other model.' }, { text: 'The flag wins.' }],
      { extraToml: '[models.other]\nprovider = "local"\nmodel = "other-model"\nmax_context_size = 50000\n' },
    );
    const result = await sandbox.run([], { input: '/model\n/model nonsense\n/model other\nhello\n/exit\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\* e2e: e2e-model \(provider local, context \w+\)/);
    expect(result.stdout).toContain('  other: other-model (provider local, context 50k)');
    expect(result.stdout).toContain("unknown model alias 'nonsense'; configured: e2e, other");
    expect(result.stdout).toContain(
      'Using the model other (thinking off) for this session from now on; saved as the default.',
    );
    expect(result.stdout).toContain('From the other model.');
    // The session remembers the switch when resumed; `--model` still decides when given.
    const resumed = await sandbox.run(['-C', '--print', '-p', 'again']);
    expect(resumed.stdout).toContain('Still the other model.');
    const flagged = await sandbox.run(['-C', '--model', 'e2e', '--print', '-p', 'and now?']);
    expect(flagged.stdout).toContain('The flag wins.');
    const models = server.requests.map((r) => (r.body as { model?: string } | undefined)?.model);
    expect(models).toEqual(['other-model', 'other-model', 'e2e-model']);
  });
  it('runs the slash commands of the soul: help, title, yolo, afk, plan (view, clear), clear, compact', async () => {
    const { server, sandbox } = await scripted.setup([{ text: 'An answer.' }]);
    const lines = [
      '/help',
      '/version',
      '/hooks',
      '/mcp',
      '/status',
      '/title',
      '/title Fix the login bug',
      '/title',
      '/yolo',
      '/yolo',
      '/afk',
      '/afk',
      '/plan view',
      '/plan on',
      '/plan view',
      '/plan clear',
      '/plan sideways',
      '/plan off',
      '/compact',
      'a question',
      '/clear',
      '/exit',
    ];
    const result = await sandbox.run([], { input: `${lines.join('\n')}\n` });
    expect(result.code).toBe(0);
    const out = result.stdout;
    for (const command of [
      '/help (/h, /?)',
      '/clear (/reset)',
      '/compact',
      '/yolo',
      '/title (/rename)',
      '/plan',
      '/init',
      '/model',
    ]) {
      expect(out).toContain(command);
    }
    expect(out).toMatch(/kimi-ts \d+\.\d+\.\d+/);
    expect(out).toContain('No hooks are configured ([[hooks]] in the config).');
    expect(out).toContain('No MCP servers are configured');
    expect(out).toContain('Model: e2e (e2e-model)');
    expect(out).toContain('Context: 0 tokens (0% of 100000)');
    expect(out).toContain('Modes: none: actions with side effects need approval');
    expect(out).toContain('Session title: Untitled');
    expect(out).toContain('Session title set to: Fix the login bug');
    expect(out).toContain('Session title: Fix the login bug');
    expect(out).toContain('YOLO mode on: every action is approved without asking.');
    expect(out).toContain('YOLO mode off: actions need approval again.');
    expect(out).toContain('AFK mode on: actions are approved and questions dismissed.');
    expect(out).toContain('AFK mode off: welcome back.');
    expect(out).toContain('Plan mode is off: there is no current plan.');
    expect(out).toContain('Plan mode on.');
    expect(out).toContain('There is no plan yet.');
    expect(out).toContain('The plan was cleared; plan mode stays on.');
    expect(out).toContain('Usage: /plan [on|off|view|clear]');
    expect(out).toContain('Plan mode off.');
    expect(out).toContain('The context is empty.');
    expect(out).toContain('An answer.');
    expect(out).toContain('The context has been cleared.');
    // Only the one real prompt reached the model.
    expect(server.requests).toHaveLength(1);
  });
  it('/add-dir lists and adds folders the agent may work in; the model hears of a new one', async () => {
    const { server, sandbox } = await scripted.setup([{ text: 'Noted.' }]);
    const extra = join(sandbox.root, 'extra');
    await mkdir(join(extra, 'docs'), { recursive: true });
    await writeFile(join(extra, 'docs', 'guide.md'), '# Guide\n');
    const lines = [
      '/add-dir',
      '/add-dir ../extra',
      '/add-dir ../extra',
      '/add-dir ../nope',
      '/add-dir .',
      '/add-dir',
      'go on',
    ];
    const result = await sandbox.run([], { input: `${lines.join('\n')}\n/exit\n` });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No additional directories. Add one with /add-dir PATH.');
    expect(result.stdout).toContain(`Added ${extra}: the agent may work there too.`);
    expect(result.stdout).toContain(`${extra} was added already.`);
    expect(result.stdout).toContain('../nope is not an existing directory.');
    expect(result.stdout).toContain(`${sandbox.workDir} is inside the working directory already.`);
    expect(result.stdout).toContain(`Additional directories:\n- ${extra}`);
    const told = JSON.stringify(server.requests[0]?.body);
    expect(told).toContain(`The user added a directory you may work in: ${extra}`);
    expect(told).toContain('guide.md');
    const [sessionDir] = await readdir(join(sandbox.home, 'sessions', workDirKey(sandbox.workDir)));
    const state = JSON.parse(
      await readFile(
        join(sandbox.home, 'sessions', workDirKey(sandbox.workDir), sessionDir!, 'state.json'),
        'utf8',
      ),
    ) as { additional_dirs: string[] };
    expect(state.additional_dirs).toEqual([extra]);
  });
  it('/task lists background tasks, shows one with its output, and stops it', async () => {
    const { sandbox } = await scripted.setup([
      {
        toolCalls: [
          {
            id: 'b1',
            name: 'Shell',
            args: {
              command: 'echo bg-line; touch bg-started; sleep 30',
              run_in_background: true,
              description: 'a long job',
            },
          },
        ],
      },
      { text: 'Started it.' },
    ]);
    const cli = liveCli(sandbox.spawn(['--yolo']));
    cli.type('start the job\n');
    await cli.waitFor('Started it.');
    cli.type('/task\n');
    await cli.waitFor('background_tasks: 1');
    const id = /task_id: (\S+)/.exec(cli.stdout)?.[1];
    expect(id).toBeDefined();
    expect(cli.stdout).toContain('description: a long job');
    // Its output is there once it has printed it (a loaded machine starts the sandbox late).
    await waitForProcess(() => (existsSync(join(sandbox.workDir, 'bg-started')) ? true : null), 'the job');
    cli.type(`/task ${id}\n`);
    await cli.waitFor('output:\nbg-line');
    cli.type(`/task stop ${id}\n/task nope\n`);
    await cli.waitFor('There is no background task nope.');
    expect(await cli.end('/exit\n')).toBe(0);
    expect(cli.stdout).toContain('status: killed');
  });

  it('/new, /sessions and /fork move between the sessions of the directory', async () => {
    const { server, sandbox } = await scripted.setup([
      { text: 'First answer.' },
      { text: 'Answer in the fork.' },
    ]);
    const lines = [
      'hello there',
      '/fork',
      'in the fork',
      '/sessions',
      '/sessions f1257000',
      '/sessions nope',
      '/help',
      '/new',
    ];
    const FIRST = 'f1257000-0000-4000-8000-000000000001';
    const result = await sandbox.run(['--session', FIRST], { input: `${lines.join('\n')}\n/exit\n` });
    expect(result.code).toBe(0);
    const out = result.stdout;
    const headers = [...out.matchAll(/kimi-ts — session (\S+) in/g)].map((m) => m[1]);
    // first-one, the fork, first-one again, a new one.
    expect(headers).toHaveLength(4);
    const [first, fork, again, fresh] = headers;
    expect(first).toBe(FIRST);
    // `/sessions f1257000`: the 8 characters the lists show name the session.
    expect(again).toBe(FIRST);
    expect(new Set([first, fork, fresh]).size).toBe(3);
    // The fork starts with the conversation so far; the model hears it too.
    expect(out).toContain('› hello there\nFirst answer.\n(resumed: 1 earlier turn above)');
    expect(JSON.stringify(server.requests[1]?.body)).toContain('hello there');
    // Both saved sessions are listed, the current one marked; the fork's title says what it is.
    expect(out).toMatch(new RegExp(`\\* ${fork}  \\S+  Fork: hello there`));
    expect(out).toMatch(new RegExp(` {2}${FIRST} {2}\\S+ {2}hello there`));
    expect(out).toContain('There is no session "nope"');
    expect(out).toContain('/new starts a session, /sessions lists them');
    // Every session was closed (nothing for Node to complain about); the empty new one was removed.
    expect(result.stderr).toBe('');
    const saved = await readdir(join(sandbox.home, 'sessions', workDirKey(sandbox.workDir)));
    expect(saved.sort()).toEqual([first, fork].sort());
  });
  it('/mcp shows the MCP servers with their state and tools', async () => {
    const { sandbox } = await scripted.setup([{ text: 'Connected.' }]);
    const everything = join(
      import.meta.dirname,
      '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    );
    const config = JSON.stringify({
      mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } },
    });
    // The first real prompt waits for the servers to connect; /mcp then sees them.
    const result = await sandbox.run(['--mcp-config', config], { input: 'hi\n/mcp\n/exit\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /MCP servers: 1 of 1 connected, \d+ tools\n- everything: connected \(.*\becho\b.*\)/,
    );
  });
  it('!command runs a command for the user alone: shown, not sent to the model', async () => {
    const { server, sandbox } = await scripted.setup([]);
    const result = await sandbox.run([], {
      input: '!echo from-bang; pwd\n!cd /tmp\n!exit 3\n!\n/exit\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`from-bang\n${sandbox.workDir}\n`);
    expect(result.stdout).toContain('(cd only lasts for that one command');
    expect(result.stdout).toContain('(exit code 3)');
    expect(result.stdout).toContain('Type a command after the !');
    expect(server.requests).toHaveLength(0);
  });
  it('/undo lists the turns and goes back to before one, in a new session', async () => {
    const { server, sandbox } = await scripted.setup([
      { text: 'Answer one.' },
      { text: 'Answer two.' },
      { text: 'Answer three.' },
    ]);
    const lines = [
      'first question',
      '/help',
      'second question',
      '/undo',
      '/undo 9',
      '/undo 2',
      'third question',
    ];
    const result = await sandbox.run([], { input: `${lines.join('\n')}\n/exit\n` });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('  1. first question\n  2. second question\n(/undo N goes back');
    expect(out).toContain('There is no turn 9 to undo');
    expect(out).toContain('(the request you undid: second question)');
    // The new session shows the conversation before the undone turn, and the model sees only that.
    expect(out).toContain('› first question\nAnswer one.\n');
    const third = JSON.stringify(server.requests[2]?.body);
    expect(third).toContain('first question');
    expect(third).toContain('Answer one.');
    expect(third).not.toContain('second question');
    expect(third).not.toContain('Answer two.');
  });
  it('takes a request over several lines (trailing backslash) or from $EDITOR (/editor)', async () => {
    const { server, sandbox } = await scripted.setup([
      { text: 'Two lines read.' },
      { text: 'Editor text read.' },
    ]);
    const editor = join(sandbox.root, 'edit.mjs');
    await writeFile(
      editor,
      "import { writeFileSync } from 'node:fs';\nwriteFileSync(process.argv[2], 'Composed\\nin the editor\\n');\n",
    );
    const result = await sandbox.run([], {
      input: 'first line \\\nsecond line\n/editor\n/exit\n',
      env: { EDITOR: `${process.execPath} ${editor}` },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Two lines read.');
    expect(result.stdout).toContain('› Composed\nin the editor\n');
    const lastUser = (index: number) => {
      const body = server.requests[index]?.body as
        | { messages: { role: string; content: unknown }[] }
        | undefined;
      return body?.messages.filter((m) => m.role === 'user').at(-1)?.content;
    };
    expect(lastUser(0)).toBe('first line \nsecond line');
    expect(lastUser(1)).toBe('Composed\nin the editor');
  });
});
