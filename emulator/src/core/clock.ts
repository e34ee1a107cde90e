/**
 * The backend's clock for what Appwrite bounds in time — transactions' expiry and the abuse
 * limits' windows. It is the system clock, moved forward only by the test switch
 * `POST /_emulator/clock` (so a test sees a 60-second transaction expire, or a one-hour window
 * end, without waiting). Documents' `$createdAt`/`$updatedAt` and sessions keep the system clock.
 */
export class Clock {
  private offsetMs = 0;

  /** Milliseconds since the epoch, as this clock reads. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves the clock forward by `ms` (never back). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward.');
    this.offsetMs += ms;
  }
}
