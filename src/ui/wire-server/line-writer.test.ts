import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { LineWriter } from './line-writer.js';

/** A writable whose writes complete only when the test says so. */
function heldWritable() {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  const stream = new Writable({
    highWaterMark: 4,
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk.toString());
      held.push(() => callback());
    },
  });
  const releaseAll = (): void => {
    for (const release of held.splice(0)) release();
  };
  return { stream, writes, held, releaseAll };
}

describe('LineWriter', () => {
  test('writes in order, batching what queued while a write was in flight', async () => {
    const out = heldWritable();
    const writer = new LineWriter(out.stream);
    writer.write('1\n');
    writer.write('2\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toEqual(['1\n2\n']);
    writer.write('3\n');
    writer.write('4\n');
    writer.write('5\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.writes).toHaveLength(1); // waits for the output
    out.releaseAll();
    const flushed = writer.flush();
    await new Promise((resolve) => setImmediate(resolve));
    out.releaseAll();
    await flushed;
    expect(out.writes).toEqual(['1\n2\n', '3\n4\n5\n']);
    writer.detach();
  });

  test('a failed output is reported once; later lines are dropped and flush still resolves', async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('EPIPE'));
      },
    });
    const failures: string[] = [];
    const writer = new LineWriter(stream, (error) => failures.push(error.message));
    writer.write('a\n');
    await writer.flush();
    writer.write('b\n');
    await writer.flush();
    expect(failures).toEqual(['EPIPE']);
    expect(writer.failed).toBe(true);
  });

  test('a destroyed output fails the writer instead of hanging', async () => {
    const out = heldWritable();
    const failures: string[] = [];
    const writer = new LineWriter(out.stream, (error) => failures.push(error.message));
    writer.write('a\n');
    await new Promise((resolve) => setImmediate(resolve));
    out.stream.destroy();
    await writer.flush();
    expect(failures).toHaveLength(1);
  });
});
