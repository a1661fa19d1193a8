import { describe, expect, it } from 'vitest';
import { type StoreCopyCommand, storeCopied } from './git-store-copies.js';

/** Which store a git command copies elsewhere on this machine: `sub` and `here` exist, nothing else. */
const isPath = (word: string) => word === 'sub' || word === 'here';

function copied(command: string, ...rest: (string | null)[]) {
  const [subcommand, ...words] = command.split(' ') as [StoreCopyCommand, ...string[]];
  return storeCopied(subcommand, [...words, ...rest], isPath);
}

describe('storeCopied', () => {
  it.each([
    ['clone . /tmp/c', { store: 'path', path: '.' }],
    ['clone -q --depth 1 sub /tmp/c', { store: 'path', path: 'sub' }],
    ['clone -b main -- ../elsewhere c', { store: 'path', path: '../elsewhere' }],
    ['clone file:///srv/repo c', { store: 'path', path: '/srv/repo' }],
    ['fetch sub', { store: 'path', path: 'sub' }],
    ['fetch ../other main', { store: 'path', path: '../other' }],
    ['pull -s ours /srv/repo main', { store: 'path', path: '/srv/repo' }],
    ['push /tmp/bare main', { store: 'this' }],
    ['push --repo /tmp/bare', { store: 'this' }],
    ['push --repo=here', { store: 'this' }],
    ['push -o ci.skip here', { store: 'this' }],
    ['worktree add /tmp/w HEAD~1', { store: 'this' }],
    ['clone $URL c', { store: 'unknown' }],
  ] as const)('git %s copies %j', (command, store) => {
    expect(copied(command)).toEqual(store);
  });

  it.each([
    'clone https://github.com/a/b',
    'clone git@github.com:a/b.git',
    'clone host:repo c',
    'fetch',
    'fetch origin',
    'pull origin main',
    'push',
    'push origin main',
    'push -u origin main',
    'worktree list',
    'worktree prune',
  ])('git %s copies no local store', (command) => {
    expect(copied(command)).toBeNull();
  });

  it('a source only run time knows may be a local path', () => {
    expect(copied('clone -q', null, 'c')).toEqual({ store: 'unknown' });
    expect(copied('push', null)).toEqual({ store: 'this' });
  });
});
