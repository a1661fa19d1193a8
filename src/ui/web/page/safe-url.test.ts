import { describe, expect, it } from 'vitest';
import { safeLinkHref } from './safe-url.js';

describe('safeLinkHref', () => {
  it.each(['https://example.com/x', 'http://localhost:8080/', 'mailto:a@b.c'])('keeps %s', (href) => {
    expect(safeLinkHref(href)).not.toBeNull();
  });
  it.each([
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'vbscript:x',
    'file:///etc/passwd',
    '/api/sessions',
    '//evil.example/x',
    '',
  ])('refuses %j', (href) => {
    expect(safeLinkHref(href)).toBeNull();
  });
});
