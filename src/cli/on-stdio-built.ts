/**
 * Runs `use` on `process.stdout` or `process.stderr` when Node first builds it, instead of building it
 * now. Node makes these streams on first access, and for a pipe that is a socket with its handle (~1 ms
 * of Node 22's CPU): print mode writes to standard output only once the model answers, so building
 * it for an error handler at load put that work before the first model request. A stream never
 * built is never written to, so it needs no handler.
 */
export function onStdioBuilt(name: 'stdout' | 'stderr', use: (stream: NodeJS.WriteStream) => void): void {
  const original = Object.getOwnPropertyDescriptor(process, name);
  const build = original?.get;
  if (!original?.configurable || build === undefined) {
    use(process[name]);
    return;
  }
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: original.enumerable ?? true,
    get() {
      const stream = build.call(process) as NodeJS.WriteStream;
      // Node's own getter from now on (it keeps the stream it built): `use` runs once.
      Object.defineProperty(process, name, original);
      use(stream);
      return stream;
    },
  });
}
