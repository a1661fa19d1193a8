import { useEffect, useState } from 'preact/hooks';

/** How often the elapsed time is redrawn. */
const TICK_MS = 1000;

/** `0:07`, `2:05`, `1:02:05`: a turn's elapsed time. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * Shown while a turn runs: a spinner (CSS, stopped for people who ask for reduced motion) and the time
 * since the indicator appeared, so a long turn visibly still runs.
 */
export function WorkingIndicator() {
  const [since] = useState(() => Date.now());
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <p class="working" role="status">
      <span class="spinner" aria-hidden="true" /> working…{' '}
      <span class="elapsed">{formatElapsed(now - since)}</span> <span class="hint">(Esc cancels)</span>
    </p>
  );
}
