import { describe, expect, it } from 'vitest';
import { seccompArch, unixSocketFilter } from './seccomp-filter.js';

describe('the seccomp program', () => {
  it('knows x86-64 and aarch64 only: elsewhere the protection is not claimed', () => {
    expect(seccompArch('x64')).toBe('x64');
    expect(seccompArch('arm64')).toBe('arm64');
    for (const other of ['ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64'])
      expect(seccompArch(other)).toBeNull();
  });

  it('checks the architecture first and kills a call under another ABI (and x32 on x86-64)', () => {
    const words = (bytes: Uint8Array) => {
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return Array.from({ length: bytes.length / 8 }, (_, i) => ({
        code: view.getUint16(i * 8, true),
        k: view.getUint32(i * 8 + 4, true),
      }));
    };
    const x64 = words(unixSocketFilter('x64'));
    expect(x64[0]).toEqual({ code: 0x20, k: 4 }); // load seccomp_data.arch
    expect(x64[1]).toMatchObject({ code: 0x15, k: 0xc000003e }); // AUDIT_ARCH_X86_64
    expect(x64.some((w) => w.code === 0x35 && w.k === 0x40000000)).toBe(true); // x32 calls
    expect(x64.some((w) => w.code === 0x15 && w.k === 41)).toBe(true); // socket
    expect(x64.at(-1)).toEqual({ code: 0x06, k: 0x80000000 }); // kill process
    const arm = words(unixSocketFilter('arm64'));
    expect(arm[1]).toMatchObject({ code: 0x15, k: 0xc00000b7 }); // AUDIT_ARCH_AARCH64
    expect(arm.some((w) => w.code === 0x15 && w.k === 198)).toBe(true); // socket
    expect(arm.some((w) => w.code === 0x35)).toBe(false);
  });
});
