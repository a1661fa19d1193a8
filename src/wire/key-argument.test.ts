import { describe, expect, it } from 'vitest';
import { extractKeyArgument, shortenMiddle } from './key-argument.js';

const workDir = '/home/me/project';

describe('extractKeyArgument', () => {
  it.each([
    ['Shell', '{"command":"npm test"}', 'npm test'],
    ['ReadFile', '{"path":"/home/me/project/src/a.ts"}', 'src/a.ts'],
    ['WriteFile', '{"path":"/etc/hosts","content":"x"}', '/etc/hosts'],
    ['StrReplaceFile', '{"path":"/home/me/project"}', '.'],
    ['ReadMediaFile', '{"path":"/home/me/projectile/x.png"}', '/home/me/projectile/x.png'],
    ['Glob', '{"pattern":"src/**/*.ts"}', 'src/**/*.ts'],
    ['Grep', '{"pattern":"TODO","path":"src"}', 'TODO'],
    ['Agent', '{"description":"Find the bug","prompt":"..."}', 'Find the bug'],
    ['SearchWeb', '{"query":"zod 4 json schema"}', 'zod 4 json schema'],
    ['FetchURL', '{"url":"https://example.com"}', 'https://example.com'],
    ['Think', '{"thought":"hmm"}', 'hmm'],
    ['TaskOutput', '{"task_id":"bash-1a2b3c4d"}', 'bash-1a2b3c4d'],
    ['TaskStop', '{"task_id":"agent-x"}', 'agent-x'],
    ['TaskList', '{}', 'active'],
    ['TaskList', '{"active_only":false}', 'all'],
    ['SetTodoList', '{"todos":[]}', null],
    ['SendDMail', '{"message":"x","checkpoint_id":1}', null],
    ['Shell', '{}', null],
    ['Shell', '', null],
    ['Shell', null, null],
    ['Shell', '{"command": oops', null],
    ['MyPluginTool', '{"a": 1}', '{"a": 1}'],
  ])('%s %s → %s', (tool, args, expected) => {
    expect(extractKeyArgument(tool, args, workDir)).toBe(expected);
  });

  it('works on arguments that are still streaming', () => {
    expect(extractKeyArgument('Shell', '{"command": "git sta', workDir)).toBe('git sta');
    expect(extractKeyArgument('ReadFile', '{"path":"/home/me/project/src/ma', workDir)).toBe('src/ma');
    expect(extractKeyArgument('Shell', '{"comm', workDir)).toBe(null);
  });

  it('shortens long values in the middle to 50 characters, on one line', () => {
    const command = `echo ${'a'.repeat(40)} && echo ${'b'.repeat(40)}\necho done`;
    const shown = extractKeyArgument('Shell', JSON.stringify({ command }), workDir)!;
    expect([...shown]).toHaveLength(50);
    expect(shown.startsWith('echo aaaa')).toBe(true);
    expect(shown.endsWith('bbbb echo done')).toBe(true);
    expect(shown).toContain('…');
    expect(shortenMiddle('short', 50)).toBe('short');
  });
});
