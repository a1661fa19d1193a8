import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { LEAF_NODES, MAX_TREE_DEPTH, parseShellCommand } from './shell-command.js';

describe('parseShellCommand: input nested past the walk depth', () => {
  const deep = 5000;
  it.each([
    ['$( nested', `echo ${'$('.repeat(deep)}x${')'.repeat(deep)}`],
    ['( nested', `${'('.repeat(deep)}ls${')'.repeat(deep)}`],
    ['"$( nested', `echo ${'"$('.repeat(deep)}x${')"'.repeat(deep)}`],
    ['{ nested', `${'{ '.repeat(deep)}ls; ${'}; '.repeat(deep)}`],
    ['backquotes in $( nested', `echo ${'$(echo `'.repeat(deep / 2)}x${'`)'.repeat(deep / 2)}`],
  ])('%s: no stack overflow; incomplete, with a part nothing allows', async (_name, command) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.incomplete).toBe(true);
    const deeper = parsed.analysed.filter((part) =>
      part.notSimple?.includes(`deeper than ${MAX_TREE_DEPTH}`),
    );
    expect(deeper).toHaveLength(1);
    expect(deeper[0]?.literal).toBeNull();
  });

  it('a long && chain (nested one link in the next by the grammar) is read whole', async () => {
    const command = Array.from({ length: 3000 }, (_, i) => `echo ${i} "$x"`).join(' && ');
    const parsed = await parseShellCommand(command);
    expect(parsed.incomplete).toBe(false);
    expect(parsed.parts).toHaveLength(3000);
    expect(parsed.parts[0]).toBe('echo 0 "$x"');
    expect(parsed.parts[2999]).toBe('echo 2999 "$x"');
  });

  it('nesting below the cap is read as before', async () => {
    const command = `echo ${'$('.repeat(20)}rm -rf x${')'.repeat(20)}`;
    const parsed = await parseShellCommand(command);
    expect(parsed.incomplete).toBe(false);
    expect(parsed.parts.at(-1)).toBe('rm -rf x');
  });
});

describe('parseShellCommand', () => {
  it.each([
    ['ls -la', ['ls -la']],
    ['echo hi && rm -rf x', ['echo hi', 'rm -rf x']],
    ['echo $(rm -rf x)', ['echo $(rm -rf x)', 'rm -rf x']],
    ['ls `rm -rf y` | cat > out', ['ls `rm -rf y`', 'rm -rf y', 'cat', '> out']],
    ['FOO=1 rm -rf / ; (cd a && git push)', ['FOO=1 rm -rf /', 'cd a', 'git push']],
    ["bash -c 'rm -rf x; ls'", ["bash -c 'rm -rf x; ls'", 'rm -rf x', 'ls']],
    ['PATH=/tmp/x; export A=1', ['PATH=/tmp/x', 'export A=1']],
    ['for f in *; do rm "$f"; done', ['rm "$f"']],
    // Commands below a redirection: after a heredoc's start, and in its target.
    ['cat <<EOF && rm -rf x\nhi\nEOF', ['cat', '<<EOF && rm -rf x\nhi\nEOF', 'rm -rf x']],
    ['echo hi > "$(rm -rf y)"', ['echo hi', '> "$(rm -rf y)"', 'rm -rf y']],
    ['echo hi > out.txt 2> "err.txt"', ['echo hi', '> out.txt', '2> "err.txt"']],
    // Text past the ASCII range and past the BMP (two UTF-16 units): parts are cut where they are.
    ['for f in é😀/*.ts; do wc -l "$f"; done > "ö-😀.txt"', ['wc -l "$f"', '> "ö-😀.txt"']],
    [
      'echo 😀𝔘 | (cd ñ && rm -rf "𝔘") && echo $(ls é)',
      ['echo 😀𝔘', 'cd ñ', 'rm -rf "𝔘"', 'echo $(ls é)', 'ls é'],
    ],
    // Substitutions inside substitutions, and inside a heredoc inside one.
    [
      'echo "$(echo "$(rm -rf x)" `id`)"',
      ['echo "$(echo "$(rm -rf x)" `id`)"', 'echo "$(rm -rf x)" `id`', 'rm -rf x', 'id'],
    ],
    [
      'x=$(cat <<EOF\n$(rm -rf y)\nEOF\n)',
      ['x=$(cat <<EOF\n$(rm -rf y)\nEOF\n)', 'cat', '<<EOF\n$(rm -rf y)\nEOF', 'rm -rf y'],
    ],
  ])('%s → every part it runs', async (command, parts) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.parts).toEqual(parts);
    expect(parsed.incomplete).toBe(false);
  });

  it.each([
    ['git status', 'git status'],
    [`'git' "commit" -m "fix the bug"`, "git commit -m 'fix the bug'"],
    ['\\rm -f x', 'rm -f x'],
    ['git status 2>&1', 'git status'],
  ])('%s is simple: %s', async (command, literal) => {
    const [part] = (await parseShellCommand(command)).analysed;
    expect(part?.notSimple).toBeNull();
    expect(part?.literal).toBe(literal);
  });

  it.each([
    ['PATH=/tmp/x git status', 'sets PATH'],
    ['echo $((x))', 'not a literal word'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    ['echo ${x@P}', 'not a literal word'],
    ['ls *.ts', 'not a literal word'],
    ['cat ~/notes', 'not a literal word'],
    ['echo {a,b}', 'not a literal word'],
    ["$'\\x72m' x", 'not a literal word'],
    ['sudo ls', 'sudo runs another command'],
    ['bash -lc ls', 'bash -c parses'],
    ['find . -exec ls {} ;', 'find runs'],
    ['eval ls', 'eval parses'],
    ['source ./env.sh', 'source changes'],
  ])('%s is not simple (%s)', async (command, why) => {
    const [part] = (await parseShellCommand(command)).analysed;
    expect(part?.notSimple).toContain(why);
    expect(part?.literal).toBeNull();
  });

  it('finds the last part of a very long command, and a loop word past the ASCII range', async () => {
    const long = await parseShellCommand(`${'echo x && '.repeat(500)}rm -rf /`);
    expect(long.parts).toHaveLength(501);
    expect(long.analysed.at(-1)?.literal).toBe('rm -rf /');
    const loop = await parseShellCommand('for f in é😀/*.env 𝔘.txt; do cat "$f"; done');
    expect(loop.loopWords).toEqual(['é😀/*.env', '𝔘.txt']);
  });

  it('looks through wrappers to the command they run', async () => {
    const [part] = (await parseShellCommand('sudo -u root env A=1 nice -n 5 rm -rf x')).analysed;
    const names = part?.invocations.map((words) => words[0]?.value);
    expect(names).toEqual(['sudo', 'env', 'nice', 'rm']);
  });

  it('marks a command with a syntax error as incomplete', async () => {
    expect((await parseShellCommand('echo "unterminated')).incomplete).toBe(true);
  });

  it('skips the children of exactly the node types the grammar gives none (node-types.json)', () => {
    const require = createRequire(import.meta.url);
    const types = JSON.parse(
      readFileSync(require.resolve('tree-sitter-bash/src/node-types.json'), 'utf8'),
    ) as { type: string; named: boolean; children?: unknown; fields?: object; subtypes?: unknown }[];
    const leaves = types
      .filter((node) => node.named && !node.children && !node.subtypes)
      .filter((node) => Object.keys(node.fields ?? {}).length === 0)
      .map((node) => node.type);
    expect([...LEAF_NODES].sort()).toEqual(leaves.sort());
  });

  it('keeps what tree-sitter parsed, and splits a plain line or loop afresh each time', async () => {
    const loop = 'ls *.ts | while read -r f; do wc -l "$f"; done';
    const first = await parseShellCommand(loop);
    expect(await parseShellCommand(loop)).toBe(first);
    for (const line of ['git status && ls -la', 'for f in *.ts; do wc -l "$f"; done']) {
      const plain = await parseShellCommand(line);
      const again = await parseShellCommand(line);
      expect(again).not.toBe(plain);
      expect(again).toEqual(plain);
      expect(Object.isFrozen(again.analysed[0])).toBe(true);
      expect(Object.isFrozen(again.loopWords)).toBe(true);
    }
  });
});
