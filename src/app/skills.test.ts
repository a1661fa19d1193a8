import { mkdir, mkdtemp, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContextFileGuard } from './context-file-guard.js';
import {
  discoverSkills,
  ownSkillFolders,
  type SkillSearch,
  skillCommands,
  skillsPromptList,
} from './skills.js';

let root: string;
let search: SkillSearch;
let guard: ContextFileGuard;
let refused: string[];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-skills-'));
  await mkdir(join(root, 'repo', '.git'), { recursive: true });
  await mkdir(join(root, 'repo', 'src'), { recursive: true });
  const userHome = join(root, 'home');
  const kimiTsHome = join(root, 'home', '.kimi-ts');
  const extraDirs = [join(root, 'extra')];
  refused = [];
  guard = new ContextFileGuard(
    {
      homes: { userHome, kimiHome: kimiTsHome },
      projectFolders: [join(root, 'repo'), join(root, 'mine')],
      ownFolders: [...ownSkillFolders(userHome, kimiTsHome), ...extraDirs],
    },
    (file, reason) => refused.push(`${file}: ${reason}`),
  );
  search = { workDir: join(root, 'repo', 'src'), userHome, kimiTsHome, extraDirs, mergeAll: true, guard };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function skill(dir: string, name: string, front: string, body = `Do ${name} well.`): Promise<void> {
  await mkdir(join(root, dir, name), { recursive: true });
  await writeFile(join(root, dir, name, 'SKILL.md'), `${front ? `---\n${front}\n---\n` : ''}${body}\n`);
}

describe('discoverSkills', () => {
  it("finds the project's, the user's and the extra skills; on a name clash the project wins, then the user", async () => {
    await skill('repo/.claude/skills', 'review', 'name: review\ndescription: Project review');
    await skill('home/.kimi/skills', 'review', 'name: Review\ndescription: User review');
    await skill('home/.kimi/skills', 'deploy', 'description: Ship it');
    await skill('home/.claude/skills', 'notes', 'name: notes\ndescription: Take notes');
    await skill('home/.kimi-ts/skills', 'ours', 'name: ours\ndescription: kimi-ts own');
    await skill('extra', 'deploy', 'name: deploy\ndescription: Extra deploy');
    await skill('extra', 'plain', '', 'No front matter at all.');
    await mkdir(join(root, 'home', '.agents', 'skills'), { recursive: true });
    await writeFile(
      join(root, 'home', '.agents', 'skills', 'flat.md'),
      '---\nname: flat\ndescription: A flat one\n---\nFlat.',
    );
    await skill('home/.codex/skills', 'broken', 'name: [unclosed');

    const skills = await discoverSkills(search);
    expect(skills.map((s) => [s.name, s.description])).toEqual([
      ['deploy', 'Ship it'],
      ['flat', 'A flat one'],
      ['notes', 'Take notes'],
      ['ours', 'kimi-ts own'],
      ['plain', 'No description provided.'],
      ['review', 'Project review'],
    ]);
    expect(skills.find((s) => s.name === 'review')?.file).toBe(
      join(root, 'repo', '.claude', 'skills', 'review', 'SKILL.md'),
    );
  });

  it('takes skills from --skills-dir alone (and the extra folders), not the project or the user', async () => {
    await skill('repo/.claude/skills', 'review', 'description: project');
    await skill('home/.kimi/skills', 'deploy', 'description: user');
    await skill('mine', 'only', 'description: chosen folder');
    await skill('extra', 'more', 'description: extra');
    const names = (await discoverSkills({ ...search, skillsDir: join(root, 'mine') })).map((s) => s.name);
    expect(names).toEqual(['more', 'only']);
  });

  it('keeps a flow skill whose flowchart is broken as a standard skill; a good one becomes /flow:<name>', async () => {
    const front = (name: string) => `name: ${name}\ndescription: d\ntype: flow`;
    await skill(
      'home/.kimi/skills',
      'broken',
      front('broken'),
      '```mermaid\ngraph TD\nA[BEGIN] --> B[task\n```',
    );
    await skill(
      'home/.kimi/skills',
      'good',
      front('good'),
      '```mermaid\ngraph TD\nA[BEGIN] --> B[task]\nB --> C[END]\n```',
    );
    const skills = await discoverSkills(search);
    expect(skills.map((s) => [s.name, s.flow === undefined])).toEqual([
      ['broken', true],
      ['good', false],
    ]);
    expect(skillCommands(skills, guard).map((c) => c.name)).toEqual(['skill:broken', 'flow:good']);
    expect(skillsPromptList(skills)).toContain('- broken: d');
    expect(skillsPromptList(skills)).not.toContain('- good:');
  });

  it("takes only the first agent's folder when merge_all_available_skills is off", async () => {
    await skill('home/.kimi/skills', 'a', 'description: from kimi');
    await skill('home/.claude/skills', 'b', 'description: from claude');
    await skill('home/.agents/skills', 'c', 'description: generic');
    const names = (await discoverSkills({ ...search, mergeAll: false })).map((s) => s.name);
    expect(names).toEqual(['a', 'c']);
  });

  it('lists skills for the system prompt and makes /skill:<name> commands that carry the instructions', async () => {
    await skill('home/.kimi/skills', 'greet', 'name: greet\ndescription: Greets people', 'Say hello warmly.');
    await skill('home/.kimi/skills', 'odd', 'name: has space\ndescription: Not typable');
    const skills = await discoverSkills(search);
    expect(skillsPromptList(skills)).toContain(
      `- greet: Greets people\n  File: ${join(root, 'home', '.kimi', 'skills', 'greet', 'SKILL.md')}`,
    );
    expect(skillsPromptList([])).toBe('(no skills are installed)');
    const commands = skillCommands(skills, guard);
    expect(commands.map((c) => c.name)).toEqual(['skill:greet']);
    const command = commands[0]!;
    if (!('expand' in command)) throw new Error('a skill command expands');
    const prompt = await command.expand({
      args: 'the team',
      soul: undefined as never,
      signal: new AbortController().signal,
    });
    expect(prompt).toBe(
      '---\nname: greet\ndescription: Greets people\n---\nSay hello warmly.\n\nUser request:\nthe team',
    );
  });
});

describe('skill files that lead elsewhere', () => {
  it('leaves out, with a warning, a project skill whose SKILL.md leads to a secret file or out of the project', async () => {
    await mkdir(join(root, 'home', '.aws'), { recursive: true });
    await writeFile(join(root, 'home', '.aws', 'credentials'), 'aws_secret_access_key = top-secret\n');
    await mkdir(join(root, 'outside'), { recursive: true });
    await writeFile(join(root, 'outside', 'x.md'), '---\ndescription: not ours\n---\nx\n');
    await mkdir(join(root, 'repo', '.kimi', 'skills', 'release'), { recursive: true });
    await mkdir(join(root, 'repo', '.kimi', 'skills', 'far'), { recursive: true });
    await symlink(
      join(root, 'home', '.aws', 'credentials'),
      join(root, 'repo', '.kimi', 'skills', 'release', 'SKILL.md'),
    );
    await symlink(join(root, 'outside', 'x.md'), join(root, 'repo', '.kimi', 'skills', 'far', 'SKILL.md'));
    await skill('repo/.kimi/skills', 'plain', 'description: a plain one');
    expect((await discoverSkills(search)).map((s) => s.name)).toEqual(['plain']);
    expect(refused.sort()).toEqual([
      expect.stringMatching(/far\/SKILL\.md: it leads to .*outside\/x\.md, outside the project$/),
      expect.stringMatching(
        /release\/SKILL\.md: it leads to .*\.aws\/credentials, a secret file \(AWS credentials\)$/,
      ),
    ]);
  });

  it("reads the person's own skill linked to their dotfiles", async () => {
    await mkdir(join(root, 'dotfiles'), { recursive: true });
    await writeFile(join(root, 'dotfiles', 'mine.md'), '---\ndescription: linked\n---\nLinked.\n');
    await mkdir(join(root, 'home', '.kimi', 'skills', 'mine'), { recursive: true });
    await symlink(
      join(root, 'dotfiles', 'mine.md'),
      join(root, 'home', '.kimi', 'skills', 'mine', 'SKILL.md'),
    );
    expect((await discoverSkills(search)).map((s) => s.description)).toEqual(['linked']);
    expect(refused).toEqual([]);
  });

  it('refuses /skill:<name> when its SKILL.md was made a symlink to a secret file after it was found', async () => {
    await skill('repo/.kimi/skills', 'release', 'description: Release it');
    const [command] = skillCommands(await discoverSkills(search), guard);
    if (!command || !('expand' in command)) throw new Error('a skill command expands');
    const file = join(root, 'repo', '.kimi', 'skills', 'release', 'SKILL.md');
    await unlink(file);
    await mkdir(join(root, 'home', '.ssh'), { recursive: true });
    await writeFile(join(root, 'home', '.ssh', 'id_rsa'), 'KEY-MATERIAL\n');
    await symlink(join(root, 'home', '.ssh', 'id_rsa'), file);
    const expanding = command.expand({
      args: '',
      soul: undefined as never,
      signal: new AbortController().signal,
    });
    await expect(expanding).rejects.toThrow(
      /is not read: it leads to .*id_rsa, a secret file \(an SSH folder\)/,
    );
  });
});
