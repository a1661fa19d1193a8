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
    ['/p/my.env', 'a dotenv file'],
    ['/p/prod.env', 'a dotenv file'],
    ['/p/.envrc', 'a dotenv file'],
    ['/p/.env~', 'a dotenv file'],
    ['/p/.env.swp', 'a dotenv file'],
    ['/p/.envrc.swp', 'a dotenv file'],
    ['/p/#.env#', 'a dotenv file'],
    ['/p/.env.bak', 'a dotenv file'],
    ['/p/.env.orig', 'a dotenv file'],
    ['/p/.env.example.bak', null],
    ['/p/.npmrc', 'a credentials file'],
    ['/p/.npmrc.old', 'a credentials file'],
    ['/p/.pypirc', 'a credentials file'],
    ['/p/.netrc', 'a credentials file'],
    ['/p/.git-credentials', 'a credentials file'],
    ['/p/id_rsa~', 'a private key'],
    ['/p/tls.key', 'a private key'],
    ['/p/cert.p12', 'a private key'],
    ['/p/terraform.tfstate', 'deployment secrets (Terraform)'],
    // Red team red3: projects' own secret files and service keys by their usual names.
    ['/p/.streamlit/secrets.toml', 'a secrets file'],
    ['/p/config/secrets.yml', 'a secrets file'],
    ['/p/Secrets.json', 'a secrets file'],
    ['/p/secret.properties', 'a secrets file'],
    ['/p/.vault_pass', 'a credentials file'],
    ['/p/vault-password.txt', 'a secrets file'],
    ['/p/deploy/kubeconfig', 'a credentials file'],
    ['/p/ci.kubeconfig', 'a credentials file'],
    ['/p/service-account-prod.json', 'a service key'],
    ['/p/client_secret_123.apps.googleusercontent.com.json', 'a service key'],
    ['/p/gcp-credentials.json', 'a service key'],
    ['/p/passwords.kdbx', 'a private key'],
    ['/p/.s3cfg', 'a credentials file'],
    ['/p/.sentryclirc', 'a credentials file'],
    ['/p/.secrets', 'a credentials file'],
    ['/p/secretary.ts', null],
    ['/p/secrets-manager.ts', null],
    ['/p/src/services.json', null],
    ['/p/vault.hcl', null],
    ['/p/.git/config', null],
    [
      '/proc/1234/environ',
      "a process's own files (environment, memory, command line: kimi-ts's keys among them)",
    ],
    [
      '/proc/1234/task/1235/mem',
      "a process's own files (environment, memory, command line: kimi-ts's keys among them)",
    ],
    [
      '/proc/self/cmdline',
      "a process's own files (environment, memory, command line: kimi-ts's keys among them)",
    ],
    ['/proc/1234', "a process's own files (environment, memory, command line: kimi-ts's keys among them)"],
    [
      '/proc/$PPID/environ',
      "a process's own files (environment, memory, command line: kimi-ts's keys among them)",
    ],
    [
      '/proc/*/environ',
      "a process's own files (environment, memory, command line: kimi-ts's keys among them)",
    ],
    ['/proc/cpuinfo', null],
    ['/proc/meminfo', null],
    ['/procedures/1234/notes', null],
    ['/p/env.ts', null],
    ['/p/src/environment.env.ts', null],
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
    ['/home/u/.sshx', null],
    ['/home/u/.kimi/config.toml', "Kimi CLI's home (config, credentials)"],
    ['/p/.pgpass.bak', 'a credentials file'],
    ['/p/.python_history', 'a shell history'],
    ['/p/keys.jks', 'a private key'],
    ['/p/prod.tfvars', 'deployment secrets (Terraform)'],
    ['/p/idea.md', null],
    ['/p/5', null],
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

describe('config files the agent loaded', () => {
  it('are secret wherever they are', () => {
    const withConfig = { ...homes, configFiles: ['/srv/elsewhere/agent.toml'] };
    expect(sensitiveReason('/srv/elsewhere/agent.toml', withConfig)).toBe(
      'a config file the agent loaded (API keys)',
    );
    expect(sensitiveReason('/srv/elsewhere/other.toml', withConfig)).toBeNull();
  });
});
