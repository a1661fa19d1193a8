import { describe, expect, it } from 'vitest';
import { credentialVariableReason, withoutCredentialVariables } from './credential-variables.js';

describe('credentialVariableReason', () => {
  it.each([
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'AWS_ACCESS_KEY_ID',
    'NPM_TOKEN',
    'HF_TOKEN',
    'PGPASSWORD',
    'MYSQL_PWD',
    'REDIS_PASSWORD',
    'STRIPE_KEY',
    'SENTRY_AUTH_TOKEN',
    'NPM_CONFIG__AUTH',
    'DOCKER_AUTH',
    'GH_PAT',
    'SLACK_API_KEY',
    'my_service_apikey',
    'GPG_PASSPHRASE',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'SSH_PRIVATE_KEY',
    'CLIENT_SECRET',
    'SMTP_PASSWD',
    'DB_PWD',
    'DB_PASS',
    'SMTP_PASS',
    'db_password',
    'MINIO_ACCESS_KEY',
    'DEPLOY_PRIVATE_KEY',
    'AZURE_CREDENTIALS',
    'KIMI_API_KEY',
    'MOONSHOT_API_KEY',
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GEMINI_API_KEY',
    'TWINE_PASSWORD',
    'VAULT_TOKEN',
  ])('%s is a credential by its name', (name) => {
    expect(credentialVariableReason(name, 'x')).toBe('its name says it holds a credential');
  });

  it.each([
    ['DATABASE_URL', 'postgres://app:hunter2@db.internal:5432/app', 'a URL with a password'],
    ['HTTPS_PROXY', 'http://me:pa55word@proxy:3128', 'a URL with a password'],
    ['DEPLOY', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'a GitHub token'],
    ['SOMETHING', 'AKIAABCDEFGHIJKLMNOP', 'an AWS access key'],
    ['SENTRY_DSN', 'https://pub:priv4te@o1.ingest.sentry.io/1', 'a URL with a password'],
    ['MODEL', `sk-ant-api03-${'a'.repeat(40)}`, 'an Anthropic API key'],
    ['MODEL', `sk-proj-${'a'.repeat(40)}`, 'an API key (sk-…)'],
    ['NOTIFY', 'xoxb-1234567890-abcdefghij', 'a Slack token'],
    ['REGISTRY', `npm_${'a'.repeat(36)}`, 'an npm token'],
    ['GL', `glpat-${'a'.repeat(20)}`, 'a GitLab token'],
    ['DEPLOY', '-----BEGIN OPENSSH PRIVATE KEY-----\nabc', 'a private key'],
  ])('%s=%s is a credential by its value (%s)', (name, value, what) => {
    expect(credentialVariableReason(name, value)).toBe(`its value holds ${what}`);
  });

  it.each([
    ['MYSQL_DSN', 'app:hunter2@tcp(db:3306)/app'],
    ['DSN', 'app:hunter2@tcp(db:3306)/app'],
    ['DATABASE_URL', 'app:hunter2@db.internal/app'],
    ['PG_URI', 'app:hunter2@db.internal/app'],
    ['CONN', 'redis://:s3cretpass@cache:6379/0'],
  ])('%s=%s is a credential: a connection string with user:password@', (name, value) => {
    expect(credentialVariableReason(name, value)).toMatch(/password/);
  });

  it.each([
    ['PATH', '/usr/bin:/bin'],
    ['HOME', '/home/me'],
    ['PWD', '/work'],
    ['OLDPWD', '/'],
    ['SSH_AUTH_SOCK', '/run/user/1000/ssh-agent'],
    ['XAUTHORITY', '/home/me/.Xauthority'],
    ['TOKENIZERS_PARALLELISM', 'false'],
    ['KEYTIMEOUT', '1'],
    ['GNOME_KEYRING_CONTROL', '/run/user/1000/keyring'],
    ['LANG', 'en_US.UTF-8'],
    ['HTTPS_PROXY', 'http://proxy:3128'],
    ['DATABASE_URL', 'postgres://localhost/app'],
    ['AUTHOR', 'me'],
    ['TERM', 'xterm-256color'],
    ['KEYBOARD_LAYOUT', 'us'],
    ['KEYMAP', 'us'],
    ['SHELL', '/bin/bash'],
    ['EDITOR', 'vim'],
    ['NODE_ENV', 'production'],
    ['LC_ALL', 'C.UTF-8'],
    ['PASSENGER_APP_ENV', 'production'],
    ['MYSQL_DSN', 'tcp(db:3306)/app'],
    ['DATABASE_URL', 'app@db.internal/app'],
    ['SENTRY_DSN', 'https://pub@o1.ingest.sentry.io/1'],
  ])('%s=%s is not', (name, value) => {
    expect(credentialVariableReason(name, value)).toBeNull();
  });
});

describe('withoutCredentialVariables', () => {
  it('drops what looks like a credential, keeps the rest and what the person named', () => {
    const env = { PATH: '/bin', GITHUB_TOKEN: 'ghp_x', NPM_TOKEN: 'n', HOME: '/h', UNSET: undefined };
    expect(withoutCredentialVariables(env, new Set(['NPM_TOKEN']))).toEqual({
      PATH: '/bin',
      NPM_TOKEN: 'n',
      HOME: '/h',
    });
  });
});
