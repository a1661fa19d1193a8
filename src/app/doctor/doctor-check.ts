/** One line of `kimi-ts doctor`: what was checked, how it went and the facts a person acts on. */
export interface DoctorCheck {
  name: string;
  /** `unknown`: this build cannot tell (not a failure). */
  status: 'ok' | 'warn' | 'fail' | 'unknown';
  detail: string;
  /** A failed essential check makes `doctor` exit 1; the others only warn. */
  essential: boolean;
}

export function check(
  name: string,
  status: DoctorCheck['status'],
  detail: string,
  essential = true,
): DoctorCheck {
  return { name, status, detail, essential };
}
