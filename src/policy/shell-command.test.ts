import { describe, expect, it } from 'vitest';
import { parseShellCommand } from './shell-command.js';

describe('parseShellCommand', () => {
  it.each([
    ['ls -la', ['ls -la']],
    ['echo hi && rm -rf x', ['echo hi', 'rm -rf x']],
    ['echo $(rm -rf x)', ['echo $(rm -rf x)', 'rm -rf x']],
    ['ls `rm -rf y` | cat > out', ['ls `rm -rf y`', 'rm -rf y', 'cat', '> out']],
    ['FOO=1 rm -rf / ; (cd a && git push)', ['rm -rf /', 'cd a', 'git push']],
    ['for f in *; do rm "$f"; done', ['rm "$f"']],
  ])('%s → every part it runs', async (command, parts) => {
    const parsed = await parseShellCommand(command);
    expect(parsed.parts).toEqual(parts);
    expect(parsed.incomplete).toBe(false);
  });

  it('marks a command with a syntax error as incomplete', async () => {
    expect((await parseShellCommand('echo "unterminated')).incomplete).toBe(true);
  });
});
