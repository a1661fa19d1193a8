import { expect, it } from 'vitest';
import { redactSecretContent } from '../policy/secret-content.js';
import { redactNotification, redactToolOutput } from './redact-tool-output.js';

const TOKEN = `ghp_${'e5F6'.repeat(9)}`;
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----';

it('takes every credential the table knows out of a text, the rest kept', () => {
  expect(redactSecretContent(`a ${TOKEN} b ${TOKEN}`, '[redacted]')).toBe('a [redacted] b [redacted]');
  expect(redactSecretContent(`key:\n${KEY}\nafter`, 'X')).toBe('key:\nX\nafter');
  expect(redactSecretContent('Authorization: Bearer abcdefgh12345678', 'X')).toBe('X');
  expect(redactSecretContent('plain text, ghp_short, https://example.com/a', 'X')).toBe(
    'plain text, ghp_short, https://example.com/a',
  );
});

it('redacts tool messages only', () => {
  const tool = { role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: `out ${TOKEN}` }] };
  expect(redactToolOutput(tool)).toEqual({
    role: 'tool',
    tool_call_id: 'c',
    content: [{ type: 'text', text: 'out [redacted]' }],
  });
  const user = { role: 'user', content: `mine ${TOKEN}` };
  expect(redactToolOutput(user)).toBe(user);
  const clean = { role: 'tool', tool_call_id: 'c', content: 'nothing' };
  expect(redactToolOutput(clean)).toBe(clean);
});

it("redacts a notification's text (a background task's last lines of output), the rest of it kept", () => {
  const done = {
    type: 'task',
    text: `<notification>\nLast lines of output:\n${KEY}\n${TOKEN}\n</notification>`,
    hook: 1,
  };
  expect(redactNotification(done)).toEqual({
    type: 'task',
    text: '<notification>\nLast lines of output:\n[redacted]\n[redacted]\n</notification>',
    hook: 1,
  });
  const clean = { type: 'task', text: '<notification>ok</notification>' };
  expect(redactNotification(clean)).toBe(clean);
});
