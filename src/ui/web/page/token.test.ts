import { describe, expect, it } from 'vitest';
import { takeToken } from './token.js';

function fakeWindow(href: string) {
  const urls: string[] = [];
  const store = new Map<string, string>();
  const location = { href } as Location;
  const history = {
    state: null,
    replaceState: (_state: unknown, _title: string, url: string) => urls.push(url),
  } as unknown as History;
  const storage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => store.set(key, value),
  } as unknown as Storage;
  return { location, history, storage, urls, store };
}

describe('takeToken', () => {
  it('takes the token from the query, keeps it for the tab and removes it from the address bar', () => {
    const w = fakeWindow('http://127.0.0.1:5494/?token=s3cret&session=abc');
    expect(takeToken(w.location, w.history, w.storage)).toBe('s3cret');
    expect(w.urls).toEqual(['/?session=abc']);
    expect([...w.store.values()]).toEqual(['s3cret']);
  });

  it('takes it from the fragment too', () => {
    const w = fakeWindow('http://127.0.0.1:5494/#token=s3cret');
    expect(takeToken(w.location, w.history, w.storage)).toBe('s3cret');
    expect(w.urls).toEqual(['/']);
  });

  it('finds a kept token after a reload, and none when there is none', () => {
    const w = fakeWindow('http://127.0.0.1:5494/?token=kept');
    takeToken(w.location, w.history, w.storage);
    w.location.href = 'http://127.0.0.1:5494/';
    expect(takeToken(w.location, w.history, w.storage)).toBe('kept');
    const empty = fakeWindow('http://127.0.0.1:5494/');
    expect(takeToken(empty.location, empty.history, empty.storage)).toBeNull();
    expect(empty.urls).toEqual([]);
  });
});
