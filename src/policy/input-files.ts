/** A script path that is the program's own input (`bash /dev/stdin <<< …`): its input is the code. */
export function isInputFile(path: string): boolean {
  return path === '/dev/stdin' || path === '/dev/fd/0' || path === '/proc/self/fd/0';
}
