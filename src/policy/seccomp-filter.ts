import { endianness } from 'node:os';

/**
 * A seccomp program (classic BPF) for bubblewrap's `--seccomp FD`: `socket(AF_UNIX, …)` and
 * `io_uring_setup` fail with EPERM, everything else is allowed. A sandboxed command can then not
 * reach a host UNIX socket (a Docker daemon, an ssh or gpg agent, a D-Bus bus, a socket in the
 * workspace) even where the socket file is visible, nor an abstract one; io_uring is refused because
 * its IORING_OP_SOCKET makes sockets without the socket() system call. `socketpair` stays allowed:
 * it makes an unconnected pair, which many programs use for their own children.
 */

/** The architectures the filter knows; anything else is not claimed as protected. */
export type SeccompArch = 'x64' | 'arm64';

interface ArchFacts {
  /** AUDIT_ARCH_* from <linux/audit.h>: what `seccomp_data.arch` holds for native calls. */
  readonly auditArch: number;
  readonly socketNr: number;
  readonly ioUringSetupNr: number;
  /** x86-64 also runs x32 calls (nr | 0x40000000) under the same audit arch: refused outright. */
  readonly x32Bit: boolean;
}

const ARCHES: Record<SeccompArch, ArchFacts> = {
  x64: { auditArch: 0xc000003e, socketNr: 41, ioUringSetupNr: 425, x32Bit: true },
  arm64: { auditArch: 0xc00000b7, socketNr: 198, ioUringSetupNr: 425, x32Bit: false },
};

const AF_UNIX = 1;
const EPERM = 1;
const X32_SYSCALL_BIT = 0x40000000;

// BPF opcodes (<linux/bpf_common.h>) and seccomp return values (<linux/seccomp.h>).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;

// Offsets in struct seccomp_data: nr, arch, instruction_pointer, args[6] (little-endian 64-bit).
const DATA_NR = 0;
const DATA_ARCH = 4;
const DATA_ARG0_LOW = 16;

/** The architecture of this process, if the filter knows it. */
export function seccompArch(arch: string = process.arch): SeccompArch | null {
  if (endianness() !== 'LE') return null;
  return arch === 'x64' || arch === 'arm64' ? arch : null;
}

type Instruction =
  | { op: 'load'; offset: number }
  | { op: 'jeq' | 'jge'; value: number; ifTrue: string; ifFalse: string }
  | { op: 'ret'; value: number; label: string };

/** The program as bytes (struct sock_filter[]: u16 code, u8 jt, u8 jf, u32 k, native order). */
export function unixSocketFilter(arch: SeccompArch): Uint8Array {
  const facts = ARCHES[arch];
  const program: Instruction[] = [
    { op: 'load', offset: DATA_ARCH },
    // A call under another ABI (32-bit x86 on x86-64) would dodge the numbers below: it is killed.
    { op: 'jeq', value: facts.auditArch, ifTrue: 'next', ifFalse: 'kill' },
    { op: 'load', offset: DATA_NR },
    ...(facts.x32Bit
      ? [{ op: 'jge', value: X32_SYSCALL_BIT, ifTrue: 'kill', ifFalse: 'next' } as const]
      : []),
    { op: 'jeq', value: facts.ioUringSetupNr, ifTrue: 'deny', ifFalse: 'next' },
    { op: 'jeq', value: facts.socketNr, ifTrue: 'next', ifFalse: 'allow' },
    { op: 'load', offset: DATA_ARG0_LOW },
    { op: 'jeq', value: AF_UNIX, ifTrue: 'deny', ifFalse: 'allow' },
    { op: 'ret', value: RET_ALLOW, label: 'allow' },
    { op: 'ret', value: RET_ERRNO | EPERM, label: 'deny' },
    { op: 'ret', value: RET_KILL_PROCESS, label: 'kill' },
  ];
  const labels = new Map<string, number>();
  program.forEach((instruction, index) => {
    if (instruction.op === 'ret') labels.set(instruction.label, index);
  });
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    const at = index * 8;
    // Jumps are relative to the next instruction; 'next' is 0.
    const jump = (label: string): number => {
      if (label === 'next') return 0;
      const target = labels.get(label);
      if (target === undefined || target <= index) throw new Error(`bad seccomp label ${label}`);
      return target - index - 1;
    };
    switch (instruction.op) {
      case 'load':
        bytes.writeUInt16LE(LD_W_ABS, at);
        bytes.writeUInt32LE(instruction.offset, at + 4);
        break;
      case 'jeq':
      case 'jge':
        bytes.writeUInt16LE(instruction.op === 'jeq' ? JEQ_K : JGE_K, at);
        bytes.writeUInt8(jump(instruction.ifTrue), at + 2);
        bytes.writeUInt8(jump(instruction.ifFalse), at + 3);
        bytes.writeUInt32LE(instruction.value >>> 0, at + 4);
        break;
      case 'ret':
        bytes.writeUInt16LE(RET_K, at);
        bytes.writeUInt32LE(instruction.value >>> 0, at + 4);
        break;
    }
  });
  return new Uint8Array(bytes);
}
