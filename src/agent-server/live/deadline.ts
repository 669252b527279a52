/**
 * Runs `onExpiry` once `ms` have passed, but only after what had already arrived by then was read. On a busy
 * machine a deadline and an answer (a refused connection, say) can both be due when the event loop gets to
 * them, and timers run first: expiring on the timer's own turn would report a timeout for a host that had
 * answered. One more timer turn lets the event loop read the pending I/O first. Returns the cancel function.
 */
export function deadline(ms: number, onExpiry: () => void): () => void {
  let timer = setTimeout(() => {
    timer = setTimeout(onExpiry, 0);
  }, ms);
  return () => clearTimeout(timer);
}
