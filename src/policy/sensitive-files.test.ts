import { describe, expect, it } from 'vitest';
import { sensitiveReason } from './sensitive-files.js';

const homes = { userHome: '/home/u', kimiHome: '/home/u/.kimi-ts' };

describe('sensitiveReason (by real path)', () => {
  it.each([
    ['/p/.env', 'a dotenv file'],
    ['/p/.env.local', 'a dotenv file'],
    ['/p/.env.production', 'a dotenv file'],
    ['/p/.env.example', null],
    ['/p/.env.sample', null],
    ['/p/.env.template', null],
    ['/p/id_rsa', 'a private key'],
    ['/p/id_rsa.pub', null],
    ['/p/id_ed25519.bak', 'a private key'],
    ['/p/server.pem', 'a private key'],
    ['/p/credentials', 'a credentials file'],
    ['/p/credentials.json', null],
    ['/p/environment.ts', null],
    ['/p/my.env', null],
    ['/p/.gcp/credentials', 'a credentials file'],
    ['/home/u/.ssh/id_rsa', 'an SSH folder'],
    ['/home/u/.ssh/id_rsa.pub', 'an SSH folder'],
    ['/home/u/.ssh/config', 'an SSH folder'],
    ['/home/u/.aws/credentials', 'AWS credentials'],
    ['/home/u/.netrc', 'a .netrc file'],
    ['/home/u/.npmrc', 'an .npmrc file (registry tokens)'],
    ['/home/u/.pypirc', 'a .pypirc file (registry tokens)'],
    ['/home/u/.config/gcloud/application_default_credentials.json', 'Google Cloud credentials'],
    ['/home/u/.docker/config.json', 'Docker credentials'],
    ['/home/u/.kube/config', 'a Kubernetes config'],
    ['/home/u/.git-credentials', 'Git credentials'],
    ['/home/u/.bash_history', 'a shell history'],
    ['/srv/x/.zsh_history', 'a shell history'],
    ['/home/u/.bashrc', null],
    ['/home/u/project/src/index.ts', null],
  ])('%s → %s', (path, expected) => {
    expect(sensitiveReason(path, homes)).toBe(expected);
  });

  it("holds the agent's whole home secret except its plan files", () => {
    for (const path of [
      'config.toml',
      'mcp.json',
      'credentials/kimi.json',
      'sessions/k/s1/context.jsonl',
      'plugins/p/config.json',
    ]) {
      expect(sensitiveReason(`/home/u/.kimi-ts/${path}`, homes)).toMatch(/agent's own home/);
    }
    expect(sensitiveReason('/home/u/.kimi-ts/plans/brave-swift-storm.md', homes)).toBeNull();
  });
});
