import { describe, expect, it } from 'vitest';
import { commandPrefix } from './command-prefix.js';

describe('commandPrefix', () => {
  it.each([
    ['git commit -m x', 'git commit'],
    ['git   status', 'git status'],
    ['npm run build', 'npm run build'],
    ['npm run build -- --watch', 'npm run build'],
    ['npm test', 'npm test'],
    ['pnpm run lint:fix', 'pnpm run lint:fix'],
    ['ls -la src', 'ls'],
    ['make', 'make'],
    ['make build', 'make build'],
    ['./build.sh --release', './build.sh'],
    ['scripts/test.sh', 'scripts/test.sh'],
    ['/usr/bin/env', null],
    ['python build.py --fast', 'python build.py'],
    ['bash ./deploy.sh', 'bash ./deploy.sh'],
  ])('%j offers %j', (command, prefix) => {
    expect(commandPrefix(command)).toBe(prefix);
  });

  it.each([
    // A wrapper runs whatever follows: a prefix of it would approve anything.
    'sudo rm -rf /tmp/x',
    'env FOO=1 make',
    'xargs rm',
    'timeout 5 curl x',
    // An assignment first: the program is not the first word.
    'FOO=1 make',
    // Inline code, quoting, expansions, paths going up.
    "bash -c 'rm -rf ~'",
    'python -c "import os"',
    'node',
    '"git" status',
    '$(rm -rf /) x',
    '../outside/run.sh',
    '~/bin/tool',
    // `npm run` alone (or with a quoted name) would cover every script.
    'npm run',
    'npm run "build"',
    '',
    '   ',
  ])('offers none for %j', (command) => {
    expect(commandPrefix(command)).toBeNull();
  });

  it('keeps a family subcommand only when it is a plain name', () => {
    expect(commandPrefix('git --no-pager log')).toBe('git');
    expect(commandPrefix('git $(evil)')).toBe('git');
  });
});
