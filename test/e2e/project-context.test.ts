import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

type Body = { messages: { role: string; content: unknown }[] };

describe('project context: AGENTS.md files and skills', () => {
  it("puts the project's AGENTS.md files and the skills in the system prompt; /skill:<name> runs a turn on a skill", async () => {
    const { server, sandbox } = await cli.setup([{ text: 'Hello, team!' }]);
    // A git project whose root and sub-package both have instructions; the agent runs in the package.
    const pkg = join(sandbox.workDir, 'packages', 'web');
    await mkdir(join(sandbox.workDir, '.git'), { recursive: true });
    await mkdir(pkg, { recursive: true });
    await writeFile(join(sandbox.workDir, 'AGENTS.md'), 'Use pnpm for everything.\n');
    await writeFile(join(pkg, 'AGENTS.md'), 'The web package uses Vite.\n');
    // A user skill (HOME is the sandbox root) and a project skill.
    const userSkill = join(sandbox.root, '.claude', 'skills', 'greet');
    await mkdir(userSkill, { recursive: true });
    await writeFile(
      join(userSkill, 'SKILL.md'),
      '---\nname: greet\ndescription: Greets a group\n---\nSay hello warmly.\n',
    );
    const projectSkill = join(sandbox.workDir, '.agents', 'skills', 'release');
    await mkdir(projectSkill, { recursive: true });
    await writeFile(
      join(projectSkill, 'SKILL.md'),
      '---\ndescription: Cuts a release\n---\nTag, then publish.\n',
    );

    const result = await sandbox.run(
      ['--config-file', sandbox.configFile, '-w', pkg, '--print', '-p', '/skill:greet the team'],
      { bare: true },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Hello, team!');
    const [system, user] = (server.requests[0]?.body as Body | undefined)?.messages ?? [];
    const prompt = String(system?.content);
    expect(prompt.indexOf('Use pnpm for everything.')).toBeLessThan(
      prompt.indexOf('The web package uses Vite.'),
    );
    expect(prompt).toContain(`- greet: Greets a group\n  File: ${join(userSkill, 'SKILL.md')}`);
    expect(prompt).toContain('- release: Cuts a release');
    // Kimi CLI's form: the SKILL.md text, then the user's request.
    const sent = typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
    expect(sent).toContain('Say hello warmly.\n\nUser request:\nthe team');
  });
  it('/flow:<name> walks a flow skill node by node, each node a turn, the decisions by <choice>', async () => {
    const { server, sandbox } = await cli.setup([
      { text: 'Ran them: 2 failures.' },
      { text: 'They did not. <choice>no</choice>' },
      { text: 'Fixed both.' },
      { text: 'Ran them: all pass.' },
      { text: '<choice>yes</choice>' },
      { text: 'Published 1.2.0.' },
    ]);
    const skill = join(sandbox.workDir, '.agents', 'skills', 'release');
    await mkdir(skill, { recursive: true });
    await writeFile(
      join(skill, 'SKILL.md'),
      [
        '---',
        'name: release',
        'description: Test, fix, publish',
        'type: flow',
        '---',
        '```mermaid',
        'flowchart TD',
        '  A([BEGIN]) --> B[Run the tests]',
        '  B --> C{Did they pass?}',
        '  C -->|yes| D[Publish the package]',
        '  C -->|no| E[Fix the failures]',
        '  E --> B',
        '  D --> F([END])',
        '```',
      ].join('\n'),
    );
    const result = await sandbox.run(['--print', '-p', '/flow:release']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Published 1.2.0.');
    const lastUserText = (index: number) => {
      const body = server.requests[index]?.body as Body | undefined;
      const user = body?.messages.filter((m) => m.role === 'user').at(-1);
      return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
    };
    expect(server.requests).toHaveLength(6);
    expect(lastUserText(0)).toBe('Run the tests');
    expect(lastUserText(1)).toContain('Did they pass?\n\nAvailable branches:\n- yes\n- no');
    expect(lastUserText(2)).toBe('Fix the failures');
    expect(lastUserText(5)).toBe('Publish the package');
    // A flow is run, not read: it is not among the skills the model is told about.
    const system = String((server.requests[0]?.body as Body | undefined)?.messages[0]?.content);
    expect(system).not.toContain('- release:');
  });
  it('--skills-dir takes skills from one folder instead of the project and the user', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'ok' }]);
    const userSkill = join(sandbox.root, '.claude', 'skills', 'greet');
    await mkdir(userSkill, { recursive: true });
    await writeFile(join(userSkill, 'SKILL.md'), '---\ndescription: user one\n---\nHi.\n');
    const chosen = join(sandbox.workDir, 'my-skills', 'lint');
    await mkdir(chosen, { recursive: true });
    await writeFile(join(chosen, 'SKILL.md'), '---\ndescription: chosen one\n---\nLint.\n');
    const result = await sandbox.run(['--print', '--skills-dir', 'my-skills', '-p', 'hi']);
    expect(result.code).toBe(0);
    const system = String((server.requests[0]?.body as Body | undefined)?.messages[0]?.content);
    expect(system).toContain('- lint: chosen one');
    expect(system).not.toContain('- greet:');
  });
});
